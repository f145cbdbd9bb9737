// What the GEMM families share (size buckets, example problems, device
// limits, type defines and program text) and the routine-level family: the
// size from which the thin kernel takes thin products, and from which the
// tiled kernel (or, where it applies, the tensor-core one) replaces the
// direct one.
#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

#include "kernels/elementwise/expressions.hpp"

#include "kernels/gemm/gemm.hpp"
#include "runtime/embedded.hpp"

namespace optune::detail {

namespace gemm_kernels {

double volume(const GemmProblem& pr) { return double(pr.m) * double(pr.n) * double(pr.k); }

namespace {
bool is_nvidia(const Capabilities& caps) {
  return caps.architecture.rfind("sm_", 0) == 0 || caps.vendor.find("NVIDIA") != std::string::npos;
}
}  // namespace

// Buckets by the shape of one product: many small products ("batched": up
// to 256^3 each, or up to 400^3 with a side of at most 64, whose batch fills
// the device with tiles of its own where "skinny"'s entries split one product
// along K: the Winograd convolutions' 16 or 36 products of 64 x P x 64), one
// thin dimension ("skinny"), else by the product's volume m n k.
std::string size_bucket(const GemmProblem& pr) {
  const std::int64_t m = pr.m, n = pr.n, k = pr.k, batch = pr.batch;
  const double v = volume(pr);
  const std::int64_t thin = std::min(m, n), wide = std::max({m, n, k});
  if (batch >= 16 && (v <= 16777216.0 || (thin <= 64 && v <= 67108864.0))) return "batched";
  if (thin <= 64 && wide >= 16 * thin) return "skinny";
  if (v <= 16777216.0) return "small";      // up to 256^3
  if (v <= 1073741824.0) return "medium";   // up to 1024^3
  return "large";
}

// The size bucket, refined by the transpose pair unless it is NN: how the
// operands lie decides which loads a kernel can use in place and which
// need a transposition pass, so a pair may want other parameters.
std::string bucket(const GemmProblem& pr) {
  const std::string size = size_bucket(pr);
  if (!pr.trans_a && !pr.trans_b) return size;  // NN, the size buckets' own layout
  return size + "/" + (pr.trans_a ? "t" : "n") + (pr.trans_b ? "t" : "n");
}

std::vector<std::string> bucket_chain(const GemmProblem& pr) {
  std::vector<std::string> chain{bucket(pr)};
  if (pr.trans_a || pr.trans_b) chain.push_back(size_bucket(pr));
  return chain;
}

std::vector<std::string> buckets() { return {"small", "medium", "large", "skinny", "batched"}; }

std::optional<std::pair<std::string, std::string>> split_bucket(const std::string& b) {
  const std::size_t slash = b.find('/');
  const std::string size = b.substr(0, slash), pair = slash == std::string::npos ? "" : b.substr(slash + 1);
  const auto sizes = buckets();
  if (std::find(sizes.begin(), sizes.end(), size) == sizes.end()) return std::nullopt;
  if (slash != std::string::npos && pair != "nt" && pair != "tn" && pair != "tt") return std::nullopt;
  return std::pair{size, pair};
}

GemmProblem example(DType dtype, const std::string& b, const Capabilities& caps) {
  const auto parts = split_bucket(b);
  const std::string size = parts ? parts->first : b, pair = parts ? parts->second : "";
  const bool cpu = caps.type == DeviceType::CPU;
  std::int64_t m = 128, n = 128, k = 128, batch = 1;
  if (size == "medium") m = n = k = cpu ? 512 : 1024;
  if (size == "large") m = n = k = cpu ? 1536 : 4096;
  if (size == "skinny") m = k = cpu ? 1024 : 4096, n = 32;
  if (size == "batched") m = n = k = 64, batch = cpu ? 256 : 4096;
  GemmProblem pr;
  pr.dtype = dtype;
  pr.m = m, pr.n = n, pr.k = k, pr.batch = batch;
  pr.c_dtype = dtype;
  pr.comp_half = dtype == DType::F16 && caps.fp16;
  pr.trans_a = !pair.empty() && pair[0] == 't';
  pr.trans_b = !pair.empty() && pair[1] == 't';
  // Row-major: A is m x k (stored k x m when transposed), B k x n (n x k).
  pr.lda = pr.trans_a ? m : k, pr.ldb = pr.trans_b ? k : n;
  return pr;
}

std::vector<DType> dtypes(const Capabilities& caps) {
  std::vector<DType> out{DType::F32, DType::F16, DType::BF16};
  if (caps.fp64) out.push_back(DType::F64);
  return out;
}

std::size_t comp_bytes(const GemmProblem& pr) {
  if (pr.dtype == DType::F64) return 8;
  return pr.dtype == DType::F16 && pr.comp_half ? 2 : 4;
}

// CUDA has 2- and 4-lane vectors of 4-byte types and 2-lane ones of double
// and half (f16 arithmetic: half2 FMAs); half (bf16) storage read as float
// goes through vload_halfN (vload_bf16N, any width of the backend).
bool vector_ok(const Capabilities& caps, const GemmProblem& pr, std::int64_t vw) {
  if (vw == 1) return true;
  const std::size_t bytes = comp_bytes(pr);
  if (std::size_t(vw) * bytes > 64) return false;
  if (caps.backend != Backend::CUDA) return true;
  if (vw > 4) return false;
  if ((pr.dtype == DType::F16 && !pr.comp_half) || pr.dtype == DType::BF16) return true;
  if (bytes == 8 || bytes == 2) return vw <= 2;
  return true;
}

std::string fits_group(const Capabilities& caps, std::int64_t x, std::int64_t y) {
  if (std::size_t(x * y) > caps.max_work_group_size) return "work-group exceeds the device's limit";
  if (std::size_t(x) > caps.max_work_item_sizes[0] || std::size_t(y) > caps.max_work_item_sizes[1])
    return "work-group exceeds the device's per-dimension limit";
  return "";
}

Defines type_defines(const GemmProblem& pr) {
  const bool f64 = pr.dtype == DType::F64;
  const bool comp_half = pr.dtype == DType::F16 && pr.comp_half;
  const auto flag = [](bool b) { return std::string(b ? "1" : "0"); };
  return {{"TYPE", c_type_name(pr.dtype)},
          {"COMP", f64 ? "double" : comp_half ? "half" : "float"},
          {"EPI", f64 ? "double" : "float"},
          {"EPI_DOUBLE", flag(f64)},
          {"HALF_STORAGE", flag(pr.dtype == DType::F16)},
          {"BF16_STORAGE", flag(pr.dtype == DType::BF16)},
          {"CTYPE", c_type_name(pr.c_dtype)},
          {"C_HALF_STORAGE", flag(pr.c_dtype == DType::F16)},
          {"C_BF16_STORAGE", flag(pr.c_dtype == DType::BF16)}};
}

namespace {

std::string assemble_program_text(const std::string& source, Unary activation) {
  std::string text;
  if (activation != Unary::Copy)
    text += "#define GEMM_ACT(A) " + substitute(unary_expression(activation, false), {"A"}, {"act_p0", "act_p1"}) +
            "\n";
  // The parts a kernel file names in its "check-prepend:" line, which the
  // kernel checks (scripts/check_kernels.sh, test_cuda_nvrtc) read too.
  const std::string_view body = kernel_source(source);
  const std::size_t at = body.find("check-prepend:");
  if (at == std::string_view::npos) throw Error(Status::Internal, source + " names no check-prepend parts");
  const std::size_t eol = body.find('\n', at);
  std::istringstream parts{std::string(body.substr(at + 14, eol == std::string_view::npos ? eol : eol - at - 14))};
  for (std::string part; parts >> part;)
    text += "#line 1 \"" + part + "\"\n" + std::string(kernel_source(part)) + "\n";
  return text + "#line 1 \"" + source + "\"\n" + std::string(body);
}

}  // namespace

// Assembled once per source and activation: every gemm and BLAS call asks for
// its program's text, and building it each time (a few hundred KB of embedded
// parts) made netlib's xdcblat2 on PoCL take 7.6 s instead of 4.9.
std::string program_text(const std::string& source, Unary activation) {
  static std::mutex mu;
  static std::map<std::pair<std::string, int>, std::string> made;
  const std::pair<std::string, int> key{source, int(activation)};
  {
    std::lock_guard lock(mu);
    if (auto it = made.find(key); it != made.end()) return it->second;
  }
  std::string text = assemble_program_text(source, activation);
  std::lock_guard lock(mu);
  return made.emplace(key, std::move(text)).first->second;
}

KernelSource helper_program(const GemmProblem& pr, const std::string& entry, std::size_t tile, bool tf32_round) {
  const std::string source = "gemm/gemm_helpers.cl";
  Defines d = type_defines(pr);
  d.emplace_back("TILE", std::to_string(tile));
  if (tf32_round) d.emplace_back("PAD_TF32", "1");
  return {source, program_text(source, pr.activation), d, entry};
}

std::size_t scratch_bytes(std::int64_t rows, std::int64_t cols, std::size_t elem, std::int64_t batch,
                          const char* what) {
  std::size_t b = elem;
  for (std::int64_t f : {rows, cols, batch})
    if (__builtin_mul_overflow(b, std::size_t(f), &b))
      throw Error(Status::Overflow, std::string("gemm: ") + what + " exceeds the address space");
  return b;
}

const std::vector<MatrixExtension>& matrix_extensions() {
  static const std::vector<MatrixExtension> known{{"cl_intel_subgroup_matrix_multiply_accumulate", "Intel"},
                                                  {"cl_arm_matrix_multiply", "Arm"}};
  return known;
}

std::vector<std::string> reported_matrix_extensions(const std::string& extensions) {
  std::set<std::string> words;
  std::istringstream in(extensions);
  for (std::string w; in >> w;) words.insert(w);
  std::vector<std::string> out;
  for (const MatrixExtension& e : matrix_extensions())
    if (words.count(e.name)) out.push_back(e.name);
  return out;
}

std::vector<Parameter> split_parameters(const Capabilities& caps) {
  // Never on CPUs, whose cores a product's tiles fill; automatic on GPUs.
  return {
      {"SPLITK", {0, 1, 2, 4, 8, 16}, caps.type == DeviceType::CPU ? 1 : 0,
       "ranges of K computed by separate groups and summed by gemm_copy_back (0: automatic; 1: none)"},
      {"SK_FILL", {1, 2, 4, 8}, 1, "SPLITK = 0: groups per compute unit below which K is split"},
      {"SK_MINK", {64, 128, 256, 512, 1024}, 256, "SPLITK = 0: the least K per range"},
  };
}

void strip_split(Defines& d) {
  std::erase_if(d, [](const auto& kv) { return kv.first == "SPLITK" || kv.first == "SK_FILL" || kv.first == "SK_MINK"; });
}

std::int64_t fill_target(const Params& p, const Capabilities& caps) {
  return std::max<std::int64_t>(caps.compute_units, 1) * p.at("SK_FILL");
}

bool mostly_padded_batch(const GemmProblem& pr, const Params& p, const Capabilities& caps, std::int64_t groups,
                         std::int64_t bm, std::int64_t bn) {
  if (pr.batch <= 1 || groups < fill_target(p, caps)) return false;
  const double covered = double(tiles(pr.m, bm) * bm) * double(tiles(pr.n, bn) * bn);
  return 2.0 * double(pr.m) * double(pr.n) < covered;
}

std::int64_t auto_split(const Params& p, const Capabilities& caps, std::int64_t groups, std::int64_t k, bool list) {
  const std::int64_t target = fill_target(p, caps);
  if (list || groups >= target) return 1;
  std::int64_t s = 2;
  while (s < 16 && groups * s < target) s *= 2;
  while (s > 1 && k < s * p.at("SK_MINK")) s /= 2;
  return s;
}

void resolve_split(Params& p, const Capabilities& caps, std::int64_t groups, std::int64_t k, bool list) {
  if (p["SPLITK"] != 0) return;
  if (const std::int64_t s = auto_split(p, caps, groups, k, list); s > 1) p["SPLITK"] = s;
}

KSplit split_k(const Params& p, std::int64_t k, std::int64_t step, std::uint64_t product_bytes, std::int64_t batch,
               bool list) {
  const std::int64_t steps = (std::max<std::int64_t>(k, 0) + step - 1) / step;
  const auto it = p.find("SPLITK");
  const std::int64_t s =
      list || it == p.end() ? 1 : std::clamp<std::int64_t>(it->second, 1, std::max<std::int64_t>(steps, 1));
  return split_ranges(steps, step, s, std::uint64_t(batch) * product_bytes);
}

std::string split_pass(const KSplit& sp) {
  return "gemm_copy_back (C, split K: sum of " + std::to_string(sp.splits) + " ranges of " + std::to_string(sp.kspan) +
         ")";
}

KSplit split_ranges(std::int64_t steps, std::int64_t step, std::int64_t s, std::uint64_t split_bytes) {
  while (s > 1 && std::uint64_t(s) * split_bytes > kMaxSplitScratch) s /= 2;
  KSplit out;
  out.kspan = steps * step;
  if (s > 1) {
    out.kspan = (steps + s - 1) / s * step;
    out.splits = (steps * step + out.kspan - 1) / out.kspan;
  }
  return out;
}

}  // namespace gemm_kernels

Defines GemmFamilyBase::defines(const Params& p, const GemmProblem& pr) const {
  Defines d = gemm_kernels::type_defines(pr);
  for (const auto& [k, v] : p) d.emplace_back(k, std::to_string(v));
  return d;
}

KernelSource GemmFamilyBase::program(const Params& p, const GemmProblem& pr) const {
  return {source(), gemm_kernels::program_text(source(), pr.activation), defines(p, pr), kernel_name()};
}

// ---- the tensor-core kernels ----

std::optional<Params> GemmTensorCoreFamily::fit_or_none(const Params& tuned, const Capabilities& caps,
                                                        const GemmProblem& pr) const {
  Params p = complete(tuned, caps);
  if (!check(p, caps, pr).empty()) p = fallback(caps, pr);
  if (!check(p, caps, pr).empty()) return std::nullopt;
  settle(p, caps, pr);
  return p;
}

Params GemmTensorCoreFamily::fit(const Params& tuned, const Capabilities& caps, const GemmProblem& pr) const {
  if (auto p = fit_or_none(tuned, caps, pr)) return *p;
  throw Error(Status::Unsupported, "gemm: the tensor-core kernel " + kernel_name() + " cannot run here (" +
                                       check(defaults(caps), caps, pr) + ")");
}

// ---- gemm_routine ----

std::vector<Parameter> GemmRoutineFamily::parameters(const Capabilities& caps) const {
  // The tiled path pays for its helper passes and its padding; below about
  // 384^3 on GPUs (CLBlast's default threshold is of that order) the direct
  // kernel is faster. PoCL: measured on a 2-core EPYC (see GemmTiledFamily).
  const std::int64_t dflt = caps.type == DeviceType::CPU ? 256 : gemm_kernels::is_nvidia(caps) ? 384 : 320;
  return {{"INDIRECT_MIN",
           {0, 64, 96, 128, 160, 192, 256, 320, 384, 448, 512, 640, 768, 1024, 1536, 2048, 4096, 1 << 20},
           dflt,
           "the tiled kernel runs when m n k >= INDIRECT_MIN^3 (0: always; 2^20: never)"},
          {"KERNEL", {0, 1, 2, 3, 4, 5}, 0,
           "0: by THIN_MIN and INDIRECT_MIN; else the candidate kernel to run where it applies and its parameters "
           "fit (1 direct, 2 tiled, 3 mma, 4 thin, 5 wgmma), elsewhere the order of 0"},
          // Thin products (M or N at most 16) read their wide operand once;
          // below a wide operand of about 128^2 elements one direct launch
          // costs less than the thin kernel (and its split's second pass).
          {"THIN_MIN", {0, 32, 64, 128, 256, 512, 1024, 2048, 1 << 20}, 128,
           "the thin kernel runs when min(m, n) <= THIN_MAX and max(m, n) k >= THIN_MIN^2 (0: always; 2^20: never)"},
          // Where the tensor cores run a product of 16 rows about as fast
          // as the thin kernel streams it, a type's entry can keep the thin
          // kernel to the thinnest products (H100 f16: M = 1 thin, M = 16
          // wgmma).
          {"THIN_MAX", {1, 2, 4, 8, 16, 32}, 16,
           "the thin dimension (min(m, n)) at most which the thin kernel runs (beyond 16: only where it reads B "
           "along N)"},
          // A bucket such as "skinny" spans products the thin kernel takes (to
          // 32 rows) and thicker ones it cannot (to 64), which want a tile.
          {"THIN_FIRST", {0, 1}, 0,
           "1: where THIN_MIN and THIN_MAX choose the thin kernel it runs ahead of KERNEL's candidate (0: KERNEL's "
           "candidate wherever it applies)"}};
}

Geometry GemmRoutineFamily::geometry(const Params&, const Capabilities&, const GemmProblem&) const { return Geometry{}; }

bool GemmRoutineFamily::use_tiled(const Params& p, const GemmProblem& pr) {
  const double t = double(p.at("INDIRECT_MIN"));
  return gemm_kernels::volume(pr) >= t * t * t;
}

bool GemmRoutineFamily::use_thin(const Params& p, const GemmProblem& pr) {
  if (std::min(pr.m, pr.n) > std::min<std::int64_t>(GemmThinFamily::kMaxThin, p.at("THIN_MAX"))) return false;
  if (!GemmThinFamily::fits_thin(pr)) return false;
  const double t = double(p.at("THIN_MIN"));
  return double(std::max(pr.m, pr.n)) * double(pr.k) >= t * t;
}

}  // namespace optune::detail
