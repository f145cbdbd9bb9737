// The thin-product GEMM kernel's parameters (gemm_thin.cl), constraints,
// grid, split along K and buckets.
#include <algorithm>
#include <optional>

#include "kernels/gemm/gemm.hpp"
#include "kernels/reduce/reduce_common.hpp"

namespace optune::detail {

namespace {

using reduction::ceil_div;
using reduction::pow2_ceil;

// CUDA's grid limit in y (row blocks x splits).
constexpr std::int64_t kMaxGridY = 65535;
// The in-group reduction uses at most this much local memory per round.
constexpr std::uint64_t kReductionBytes = 16 * 1024;

std::size_t comp_size(const GemmProblem& pr) { return pr.dtype == DType::F64 ? 8 : 4; }

// Elements of a 16-byte pack: 4 of float, 2 of double, 8 of half and bf16.
std::int64_t pack16(const GemmProblem& pr) {
  return pr.dtype == DType::F64 ? 2 : pr.dtype == DType::F16 || pr.dtype == DType::BF16 ? 8 : 4;
}

// The widest pack of B the backend loads as one access: CUDA's 16 bytes
// (8-lane half packs are one 16-byte load); OpenCL 16 elements.
std::int64_t max_vw(const Capabilities& caps, const GemmProblem& pr) {
  return caps.backend != Backend::CUDA ? 16 : pack16(pr);
}

bool tensor_cores(const Params& p) { return p.count("TC") && p.at("TC"); }

// K per step of a group (the unit of the split's ranges), columns of C per
// group. With TC each of the WGY warps takes KU packs of 4 lanes along K, and
// every warp NJ blocks of 16 columns, 16 VW where B is read along N
// (gemm_thin_tc.cl).
std::int64_t step_of(const Params& p, bool kcontig) {
  if (tensor_cores(p)) return p.at("WGY") * 4 * p.at("VW") * p.at("KU");
  return kcontig ? p.at("KU") * p.at("WGX") * p.at("VW") : p.at("KU") * p.at("WGY");
}
std::int64_t gcols_of(const Params& p, bool kcontig) {
  if (tensor_cores(p)) return 16 * p.at("NJ") * (kcontig ? 1 : p.at("VW"));
  return kcontig ? p.at("WGY") * p.at("NJ") : p.at("WGX") * p.at("NJ") * p.at("VW");
}

// TC: the accumulators' bytes (f64 for f32 and f64, f32 for 16-bit types)
// and what the path needs (the f64 m16n8k8 of sm_90, or sm_80's m16n8k16;
// packs of 16 bytes, pack16).
std::size_t tc_acc_size(const GemmProblem& pr) {
  return pr.dtype == DType::F16 || pr.dtype == DType::BF16 ? 4 : 8;
}
std::string tc_refusal(const Capabilities& caps, const GemmProblem& pr, const ThinView& v, std::int64_t tc) {
  const bool half = pr.dtype == DType::F16 || pr.dtype == DType::BF16;
  if (pr.dtype != DType::F32 && pr.dtype != DType::F64 && !half) return "TC takes f32, f64, f16 and bf16";
  if (caps.backend != Backend::CUDA || caps.compute_capability_major < (half ? 8 : 9))
    return half ? "TC needs mma.sync (CUDA, compute capability 8.0)" : "TC needs f64 mma.sync m16n8k8 (CUDA, 9.0)";
  // A stored K x M is gathered element by element (TC 2 only, until its
  // speed is measured); A stored M x K and B are read in 16-byte packs.
  if (v.trans_a && tc < 2) return "TC 1 needs A stored M x K (TC 2 gathers A stored K x M)";
  if ((!v.trans_a && v.align_a % pack16(pr)) || v.align_b % pack16(pr))
    return "TC needs A's (stored M x K) and B's offsets, leading dimensions and batch strides in 16-byte packs";
  return "";
}
// Static shared memory of a CUDA kernel.
constexpr std::uint64_t kTcLocalLimit = 48 * 1024;

// Local elements per row of C in one reduction round (0: one lane per
// output). Counted with SG too: the kernel falls back to local memory where
// the device's sub-groups turn out not to be WGX lanes.
std::int64_t red_row(const Params& p, bool kcontig) {
  if (kcontig) return p.at("WGX") > 1 ? gcols_of(p, true) * (p.at("WGX") + 1) : 0;
  return p.at("WGY") > 1 ? p.at("WGY") * gcols_of(p, false) : 0;
}

// Rows of C per reduction round: all MT where they fit in kReductionBytes,
// else fewer.
std::int64_t rounds_rows(const Params& p, const GemmProblem& pr, bool kcontig) {
  const std::int64_t row = red_row(p, kcontig);
  const std::int64_t budget = std::int64_t(kReductionBytes / comp_size(pr));
  std::int64_t rr = p.at("MT");
  while (rr > 1 && rr * row > budget) rr /= 2;
  return rr;
}

// A's staging in local memory: AL steps of K where B is read along N, ALK
// along K (0: none).
const char* staged_key(bool kcontig) { return kcontig ? "ALK" : "AL"; }
std::int64_t staged_steps(const Params& p, bool kcontig) { return p.at(staged_key(kcontig)); }

// The reduction's round and, with A staged, A's chunk: MT rows of the
// staged steps' K (along K each row padded by 4 elements, gemm_thin_steps.cl).
// TC: fragments of 16 columns per warp (VW of them per block where B is read
// along N).
std::int64_t tc_blocks(const Params& p, bool kcontig) { return p.at("NJ") * (kcontig ? 1 : p.at("VW")); }

std::uint64_t local_bytes(const Params& p, const GemmProblem& pr, bool kcontig) {
  if (tensor_cores(p))  // the warps' fragments (WGY > 1) and the kernel's one-element round
    return (p.at("WGY") > 1 ? std::uint64_t(p.at("WGY") * tc_blocks(p, kcontig) * (p.at("MT") / 8) * 128) *
                                  tc_acc_size(pr)
                            : 0) +
           comp_size(pr);
  const std::int64_t red = rounds_rows(p, pr, kcontig) * red_row(p, kcontig);
  const std::int64_t ach = staged_steps(p, kcontig) * step_of(p, kcontig);
  const std::int64_t chunk = ach == 0 ? 0 : (ach + (kcontig ? 4 : 0)) * p.at("MT");
  return std::uint64_t(std::max<std::int64_t>(red, 1) + chunk) * comp_size(pr);
}

// What a pack of A must divide: MT where A is stored K x M (packs along M),
// else the lane's consecutive K: VW (B read along K) or KU rows (along N).
std::int64_t a_pack_span(const Params& p, const ThinView& v) {
  if (tensor_cores(p)) return p.at("VW");  // TC: A's packs are B's, along K
  return v.trans_a ? p.at("MT") : v.trans_b ? p.at("VW") : p.at("KU");
}

// Output tiles of the grid: column blocks x row blocks x products (each
// split's groups share one; FUSE's tickets count arrivals per tile).
std::int64_t tiles_of(const Params& p, const ThinView& v, std::int64_t batch) {
  return ceil_div(std::max<std::int64_t>(v.n, 1), gcols_of(p, v.trans_b)) *
         ceil_div(std::max<std::int64_t>(v.m, 1), p.at("MT")) * batch;
}

// B one step ahead (PF; not with A staged, whose loop has barriers).
bool prefetches(const Params& p, const ThinView& v) { return p.at("PF") && staged_steps(p, v.trans_b) == 0; }

// Accumulators and loaded values of B per work-item (twice the loads with PF).
std::int64_t registers(const Params& p, const ThinView& v, const GemmProblem& pr) {
  const std::int64_t mt = p.at("MT"), nj = p.at("NJ"), vw = p.at("VW"), ku = p.at("KU");
  // TC, in 32-bit registers: 4 accumulators per fragment, 16-byte packs.
  // (B along N: 2 VW packs of B per pack of A and block.)
  if (tensor_cores(p))
    return tc_blocks(p, v.trans_b) * (mt / 8) * 4 * std::int64_t(tc_acc_size(pr) / 4) +
           ku * ((v.trans_b ? 2 : 2 * vw) * nj + mt / 8) * 4 * (p.at("PF") ? 2 : 1);
  const std::int64_t loads = ku * nj * vw * (prefetches(p, v) ? 2 : 1);
  return v.trans_b ? mt * nj + loads : mt * nj * vw + loads;
}

}  // namespace

bool GemmThinFamily::fits_thin(const GemmProblem& pr) { return within_limits(view(pr)); }

// The thin side's limit for the path the view takes: 16 along K, 32 along N.
bool GemmThinFamily::within_limits(const ThinView& v) {
  return v.m <= (v.trans_b ? kMaxThinAlongK : kMaxThin);
}

// The product as the kernel sees it: swapped (C^T = B^T A^T) where N is the
// thinner side, unless only the unswapped form is within the limits (row-major
// NN 32 x 24: swapped, B would be read along K with 24 rows).
ThinView GemmThinFamily::view(const GemmProblem& pr) {
  const ThinView plain = oriented(pr, false);
  if (pr.n >= pr.m || pr.n > kMaxThin) return plain;
  const ThinView swapped = oriented(pr, true);
  return within_limits(swapped) || !within_limits(plain) ? swapped : plain;
}

ThinView GemmThinFamily::oriented(const GemmProblem& pr, bool swap) {
  ThinView v;
  v.swapped = swap;
  v.m = v.swapped ? pr.n : pr.m;
  v.n = v.swapped ? pr.m : pr.n;
  v.k = pr.k;
  v.trans_a = v.swapped ? !pr.trans_b : pr.trans_a;
  v.trans_b = v.swapped ? !pr.trans_a : pr.trans_b;
  v.align_a = v.swapped ? pr.align_b : pr.align_a;
  v.align_b = v.swapped ? pr.align_a : pr.align_b;
  return v;
}

// GPUs (B read along N): 32 x 8 work-items, 4-element packs, each row of
// lanes 4 rows of B per step, all loaded before any is used (4 16-byte loads
// in flight per lane, no barrier in the K loop); a group covers 128 columns,
// the device filled by splitting K for half a fill of resident groups
// (FILL 8 sixteenths; the unit is a sixteenth so that a tuned entry can ask
// for less than a quarter fill, e.g. no split at 128 groups of 256 on an
// H100). Along K (B stored N x K) the same shape is a warp per column of
// C, 4 packs of 4 along K in flight per lane, summed by a sub-group
// reduction. A in packs of 4 along its contiguous dimension. NVRTC for sm_90
// gives the f32 programs of these defaults 48 registers for M = 1 and
// 80-182 for M = 16 (no spills). CPUs (PoCL):
// one lane per column pack of 8 (no in-group reduction), 16 packs a group,
// 4 rows of B per step, A staged in local memory 4 steps at a time where B
// is read along N (on the loaded 2-core EPYC, 16 x 1024 x 1024 f32: 1.2-2.0
// ms against 13.9 with A read through the caches; the kernel before the
// streaming one took 2.3); a CPU core runs a group at a time.
std::vector<Parameter> GemmThinFamily::parameters(const Capabilities& caps) const {
  const bool cpu = caps.type == DeviceType::CPU;
  const bool sg = reduction::subgroup_size(caps) > 0;
  return {
      {"WGX", {1, 4, 8, 16, 32, 64, 128, 256}, cpu ? 16 : 32, "work-items along x: along N (B read along N) or K"},
      {"WGY", {1, 2, 4, 8, 16, 32, 64}, cpu ? 1 : 8, "work-items along y: along K (B read along N) or N"},
      {"VW", {1, 2, 4, 8, 16}, cpu ? 8 : 4, "elements per load of B (bounded by the backend and B's alignment)"},
      {"NJ", {1, 2, 4}, 1, "packs of columns (B read along N) or columns (along K) of C per work-item"},
      {"KU", {1, 2, 4, 8, 16}, 4,
       "loads of B per lane and column (pack) issued before any is used: rows of K (B read along N) or packs along K"},
      {"MT", {1, 2, 4, 8, 16, 32}, cpu ? 16 : 32,
       "rows of the thin operand per group (fit: at most the thin dimension's power of two, halved while over 256 "
       "registers)"},
      {"AV", {1, 2, 4, 8}, 4,
       "elements per load of A along its contiguous dimension (fit: bounded by A's alignment and the lane's span)"},
      {"AL", {0, 1, 2, 4, 8, 16}, cpu ? 4 : 0,
       "B read along N: 0 A read through the caches, n A staged in local memory n steps of K at a time (fit: "
       "halved to fit)"},
      {"ALK", {0, 1, 2, 4}, 0,
       "B read along K: 0 A read through the caches, n A staged in local memory n steps of K at a time, each "
       "lane reading its own k in packs (fit: halved to fit, to 0)"},
      {"SPLIT", {0, 1, 2, 3, 4, 8, 16, 32, 64}, 0, "splits along K (0: from the compute units and FILL; 1: none)"},
      {"FILL", {1, 2, 4, 8, 16, 32, 64}, cpu ? 16 : 8,
       "sixteenths of a device fill of resident groups that the automatic split aims at"},
      {"SG", sg ? std::vector<std::int64_t>{0, 1} : std::vector<std::int64_t>{0}, sg ? 1 : 0,
       "1: sub-group reduction along K where WGX is the sub-group size (B read along K)"},
      {"FUSE", {0, 1}, 0,
       "split K: 1 the partial sums added by each tile's last group in the same kernel (arrival tickets), 0 by a "
       "second kernel, gemm_thin_reduce"},
      {"PF", {0, 1}, 0,
       "1: each step's loads of B issued before the previous step's products (twice the registers for B; "
       "ignored where A is staged, AL > 0 along N)"},
      {"TC",
       caps.backend == Backend::CUDA && caps.compute_capability_major >= 8 ? std::vector<std::int64_t>{0, 1, 2}
                                                                          : std::vector<std::int64_t>{0},
       0,
       "1: the products on the tensor cores, both operands straight into the fragments (CUDA; A stored M x K, B "
       "either way, 16-byte packs; f32 as f64 products; fit: WGX 32, VW the type's pack, MT 8 or 16); 2: also "
       "A stored K x M, its elements gathered"},
      {"BHINT",
       caps.backend == Backend::CUDA && caps.compute_capability_major >= 8 ? std::vector<std::int64_t>{0, 1, 2}
                                                                          : std::vector<std::int64_t>{0},
       0, "TC: B's loads as they are (0), with L2 fetching 256 bytes around a miss (1), and without an L1 line (2)"},
      register_cap_parameter(caps),
  };
}

std::string GemmThinFamily::check(const Params& p, const Capabilities& caps, const GemmProblem& pr) const {
  if (std::string why = check_candidates(p, caps); !why.empty()) return why;
  const ThinView v = view(pr);
  if (!fits_thin(pr)) return "more than 16 thin rows where B is read along K, or more than 32";
  const std::int64_t wgx = p.at("WGX"), wgy = p.at("WGY"), vw = p.at("VW");
  if (std::string why = gemm_kernels::fits_group(caps, wgx, wgy); !why.empty()) return why;
  if (tensor_cores(p)) {
    if (std::string why = tc_refusal(caps, pr, v, p.at("TC")); !why.empty()) return why;
    if (wgx != 32 || vw != pack16(pr)) return "TC needs WGX 32 and VW the type's 16-byte pack";
    if (p.at("MT") != 8 && p.at("MT") != 16) return "TC needs MT 8 or 16";
    if (p.at("ALK") || p.at("SG")) return "TC stages nothing in local memory and uses no sub-groups";
    if (local_bytes(p, pr, v.trans_b) > kTcLocalLimit) return "TC's fragments in local memory exceed 48 KiB";
  }
  if (vw > max_vw(caps, pr)) return "VW exceeds the backend's widest pack for this type";
  if (v.align_b % vw) return "B's offset, leading dimension or batch stride is not a multiple of VW";
  const std::int64_t av = p.at("AV");
  if (av > max_vw(caps, pr)) return "AV exceeds the backend's widest pack for this type";
  if (v.align_a % av) return "A's offset, leading dimension or batch stride is not a multiple of AV";
  if (a_pack_span(p, v) % av)
    return v.trans_a ? "AV does not divide MT (A stored K x M)"
                     : v.trans_b ? "AV does not divide VW (A stored M x K, B read along K)"
                                 : "AV does not divide KU (A stored M x K, B read along N)";
  if (registers(p, v, pr) > 256) return "more than 256 accumulators and loaded values per work-item";
  if (p.at("SG") && reduction::subgroup_size(caps) != wgx) return "SG needs sub-groups of WGX lanes";
  if (p.at("ALK") && !v.trans_b) return "ALK stages A where B is read along K; here B is read along N (AL)";
  if (local_bytes(p, pr, v.trans_b) > local_limit(caps)) return "local memory exceeds the device's";
  const std::int64_t rows = ceil_div(std::max<std::int64_t>(v.m, 1), p.at("MT"));
  if (rows * split(p, caps, pr).splits > kMaxGridY) return "more than 65535 row blocks times splits";
  return "";
}

ThinSplit GemmThinFamily::split(const Params& p, const Capabilities& caps, const GemmProblem& pr) const {
  const ThinView v = view(pr);
  const std::int64_t step = step_of(p, v.trans_b);
  const std::int64_t steps = std::max<std::int64_t>(ceil_div(v.k, step), 1);
  const std::int64_t groups = tiles_of(p, v, pr.batch);
  std::int64_t s = p.at("SPLIT");
  if (s == 0) {
    const std::int64_t target =
        std::max<std::int64_t>(1, reduction::target_groups(caps, p.at("WGX") * p.at("WGY"), 1) * p.at("FILL") / 16);
    s = groups >= target ? 1 : ceil_div(target, groups);
  }
  s = std::clamp<std::int64_t>(s, 1, std::min<std::int64_t>(steps, 256));
  // The partial sums stay under gemm_kernels::kMaxSplitScratch.
  return gemm_kernels::split_ranges(steps, step, s,
                                    std::uint64_t(pr.batch) * std::uint64_t(v.m) * std::uint64_t(v.n) * comp_size(pr));
}

std::size_t GemmThinFamily::scratch_bytes(const Params& p, const Capabilities& caps, const GemmProblem& pr) const {
  const ThinSplit s = split(p, caps, pr);
  if (s.splits <= 1) return 0;
  const ThinView v = view(pr);
  return std::size_t(s.splits) * std::size_t(pr.batch) * std::size_t(v.m) * std::size_t(v.n) * comp_size(pr);
}

std::size_t GemmThinFamily::ticket_bytes(const Params& p, const Capabilities& caps, const GemmProblem& pr) const {
  if (!p.at("FUSE") || split(p, caps, pr).splits <= 1) return 0;
  return std::size_t(tiles_of(p, view(pr), pr.batch)) * sizeof(std::uint32_t);
}

Geometry GemmThinFamily::geometry(const Params& p, const Capabilities& caps, const GemmProblem& pr) const {
  const ThinView v = view(pr);
  const std::size_t cols = std::size_t(ceil_div(std::max<std::int64_t>(v.n, 1), gcols_of(p, v.trans_b)));
  const std::size_t rows = std::size_t(ceil_div(std::max<std::int64_t>(v.m, 1), p.at("MT")));
  Geometry g;
  g.dims = 3;
  g.local[0] = std::size_t(p.at("WGX"));
  g.local[1] = std::size_t(p.at("WGY"));
  g.global[0] = cols * g.local[0];
  g.global[1] = rows * std::size_t(split(p, caps, pr).splits) * g.local[1];
  g.global[2] = std::size_t(pr.batch);
  return g;
}

Geometry GemmThinFamily::reduce_geometry(const Capabilities& caps, const GemmProblem& pr) const {
  const ThinView v = view(pr);
  const std::size_t x = std::min<std::size_t>(64, caps.max_work_group_size ? caps.max_work_group_size : 64);
  Geometry g;
  g.dims = 3;
  g.local[0] = x;
  g.global[0] = round_up(std::size_t(std::max<std::int64_t>(v.n, 1)), x);
  g.global[1] = std::size_t(std::max<std::int64_t>(v.m, 1));
  g.global[2] = std::size_t(pr.batch);
  return g;
}

Defines GemmThinFamily::defines(const Params& p, const GemmProblem& pr) const {
  Defines d = gemm_kernels::type_defines(pr);
  for (auto& [k, val] : d)
    if (k == "COMP" && pr.dtype == DType::F16) val = "float";  // f16 storage, f32 arithmetic
  const bool kcontig = view(pr).trans_b;
  for (const char* k : {"WGX", "WGY", "VW", "NJ", "KU", "MT", "AV", "SG"}) d.emplace_back(k, std::to_string(p.at(k)));
  // The other path's staging is left out of the program (and its key).
  d.emplace_back("AL", kcontig ? "0" : std::to_string(staged_steps(p, false)));
  d.emplace_back("ALK", kcontig ? std::to_string(staged_steps(p, true)) : "0");
  d.emplace_back("PF", prefetches(p, view(pr)) ? "1" : "0");
  d.emplace_back("FUSE", std::to_string(p.at("FUSE")));
  d.emplace_back("TC", std::to_string(p.at("TC")));
  if (p.at("TC") && p.at("BHINT")) d.emplace_back("BHINT", std::to_string(p.at("BHINT")));
  d.emplace_back("B_KCONTIG", kcontig ? "1" : "0");
  d.emplace_back("A_KCONTIG", view(pr).trans_a ? "0" : "1");
  d.emplace_back("RR", std::to_string(rounds_rows(p, pr, kcontig)));
  add_register_cap(d, p);
  return d;
}

KernelSource GemmThinFamily::reduce_program(const Params& p, const GemmProblem& pr) const {
  KernelSource s = program(p, pr);
  s.entry = "gemm_thin_reduce";
  return s;
}

std::optional<Params> GemmThinFamily::fit_or_none(const Params& tuned, const Capabilities& caps,
                                                  const GemmProblem& pr) const {
  const ThinView v = view(pr);
  const auto adjust = [&](Params p) {
    p["MT"] = std::min(p["MT"], pow2_ceil(std::max<std::int64_t>(v.m, 1)));
    std::int64_t vw = std::min(p["VW"], max_vw(caps, pr));
    while (vw > 1 && v.align_b % vw) vw /= 2;
    p["VW"] = vw;
    while (p["MT"] > 1 && registers(p, v, pr) > 256) p["MT"] /= 2;  // M = 32 under wide packs (CPUs)
    std::int64_t av = std::min(p["AV"], max_vw(caps, pr));
    while (av > 1 && (v.align_a % av || a_pack_span(p, v) % av)) av /= 2;
    p["AV"] = av;
    while (p["AL"] > 1 && local_bytes(p, pr, v.trans_b) > local_limit(caps)) p["AL"] /= 2;
    if (!v.trans_b) p["ALK"] = 0;
    while (p["ALK"] > 0 && local_bytes(p, pr, v.trans_b) > local_limit(caps)) p["ALK"] /= 2;
    if (reduction::subgroup_size(caps) != p["WGX"]) p["SG"] = 0;
    if (p["TC"] && !tc_refusal(caps, pr, v, p["TC"]).empty()) p["TC"] = 0;
    if (!p["TC"]) p["BHINT"] = 0;  // the scalar path has no hinted loads
    if (p["TC"]) {
      p["WGX"] = 32, p["VW"] = pack16(pr);
      p["AV"] = v.trans_a ? 1 : pack16(pr);  // A stored K x M: gathered, no packs
      p["MT"] = v.m <= 8 ? 8 : 16;
      p["ALK"] = p["SG"] = 0;
      while (p["WGY"] > 1 && local_bytes(p, pr, v.trans_b) > std::min<std::uint64_t>(kTcLocalLimit, local_limit(caps)))
        p["WGY"] /= 2;
    }
    // No split, nothing to fuse: the program without the tickets' code (whose
    // fence and barriers slowed an unsplit product on the H200).
    if (p["FUSE"] && split(p, caps, pr).splits <= 1) p["FUSE"] = 0;
    return p;
  };
  for (const Params& p : {adjust(complete(tuned, caps)), adjust(defaults(caps))})
    if (check(p, caps, pr).empty()) return p;
  return std::nullopt;
}

Params GemmThinFamily::fit(const Params& tuned, const Capabilities& caps, const GemmProblem& pr) const {
  if (auto p = fit_or_none(tuned, caps, pr)) return *p;
  throw Error(Status::Unsupported, "gemm: the thin kernel cannot run here (" + check(defaults(caps), caps, pr) + ")");
}

namespace {
// The thin side and the way B is read; where B is read along K, a thin
// operand stored K x M (A_KCONTIG 0: N thin with A stored row-major, the
// kernel's A being the call's B) refines it ("/km"): each lane's loads of A
// then span rows of A rather than one row, and the H200's best shapes for the
// two differ (WGX 16 against 4). One row (M = 1) is a vector either way.
// Five to eight rows (`m<=8`) refine the `m<=16` bucket, which they fall
// back to: the tensor-core path holds the 8 rows of one fragment and wants
// shorter steps along K there than at 16 rows (two fragments, twice the
// registers). The `/km` refinement keeps the coarse classes.
std::string size_and_path(const ThinView& v, bool fine) {
  return std::string(v.m <= 1    ? "m<=1"
                     : v.m <= 4  ? "m<=4"
                     : fine && v.m <= 8 ? "m<=8"
                     : v.m <= 16 ? "m<=16"
                                 : "m<=32") +
         (v.trans_b ? "/nk" : "/kn");
}
bool refined_km(const ThinView& v) { return v.trans_b && v.trans_a && v.m > 1; }
}  // namespace

std::string GemmThinFamily::bucket(const GemmProblem& pr) const {
  const ThinView v = view(pr);
  return refined_km(v) ? size_and_path(v, false) + "/km" : size_and_path(v, true);
}

std::vector<std::string> GemmThinFamily::bucket_chain(const GemmProblem& pr) const {
  const ThinView v = view(pr);
  if (refined_km(v)) return {size_and_path(v, false) + "/km", size_and_path(v, false)};
  const std::string fine = size_and_path(v, true), coarse = size_and_path(v, false);
  if (fine != coarse) return {fine, coarse};
  return {fine};
}

std::vector<std::string> GemmThinFamily::buckets() const {
  return {"m<=1/kn", "m<=4/kn",  "m<=8/kn",  "m<=16/kn",   "m<=32/kn",   "m<=1/nk",
          "m<=4/nk", "m<=8/nk",  "m<=16/nk", "m<=4/nk/km", "m<=16/nk/km"};
}

std::string GemmThinFamily::trust_bucket(const std::string& b) const {
  const std::size_t slash = b.find('/');
  if (slash == std::string::npos) return KernelFamily::trust_bucket(b);
  // The thinnest bucket of the same path (two rows where A is stored K x M).
  return (b.find("/km") != std::string::npos ? "m<=4" : "m<=1") + b.substr(slash);
}

// Decode-time shapes: M tokens against a square weight of 4096 (1024 on CPUs);
// "/km": the tokens stored K x M.
GemmProblem GemmThinFamily::make_example(DType dtype, const std::string& b, const Capabilities& caps) const {
  GemmProblem pr;
  pr.dtype = dtype;
  pr.m = b.rfind("m<=1/", 0) == 0    ? 1
         : b.rfind("m<=4/", 0) == 0  ? 4
         : b.rfind("m<=8/", 0) == 0  ? 8
         : b.rfind("m<=16/", 0) == 0 ? 16
                                     : 32;
  pr.n = pr.k = caps.type == DeviceType::CPU ? 1024 : 4096;
  pr.trans_b = b.find("/nk") != std::string::npos;
  pr.trans_a = pr.trans_b && b.find("/km") != std::string::npos;  // A stored K x M
  pr.comp_half = dtype == DType::F16 && caps.fp16;
  pr.lda = pr.trans_a ? pr.m : pr.k, pr.ldb = pr.trans_b ? pr.k : pr.n;
  if (pr.trans_a) pr.align_a = pr.m;  // rows of M elements: packs along M of at most M
  return pr;
}

}  // namespace optune::detail
