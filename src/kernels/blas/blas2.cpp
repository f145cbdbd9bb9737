#include "kernels/blas/blas2.hpp"

#include <algorithm>

#include "kernels/blas/blas_types.hpp"

namespace optune::detail {

const char* blas2_routine_name(Blas2Routine r) noexcept {
  static const char* names[] = {"gemv", "gbmv", "symv", "hemv", "sbmv", "hbmv", "spmv", "hpmv", "ger", "geru",
                                "gerc", "syr",  "spr",  "syr2", "spr2", "her",  "hpr",  "her2", "hpr2"};
  const int i = int(r);
  return i >= 0 && i <= int(Blas2Routine::Hpr2) ? names[i] : "?";
}

bool blas2_is_product(Blas2Routine r) noexcept { return int(r) <= int(Blas2Routine::Hpmv); }

std::vector<Parameter> Blas2Family::parameters(const Capabilities& caps) const {
  return {
      {"WGS", {64, 128, 256, 512}, 256, "work-items per group (a power of two)"},
      {"TJ", {1, 2, 4, 8, 16, 32, 64, 128, 256, 512}, 32,
       "products with M's rows contiguous: work-items per row, side by side (at most WGS)"},
      {"CTJ", {1, 2, 4, 8, 16, 32, 64}, caps.type == DeviceType::CPU ? 1 : 16,
       "products with M's columns contiguous: work-items per row (pack of rows), WGS / CTJ apart (at most WGS)"},
      {"SLICES", {0, 1, 2, 4, 8, 16, 32, 64}, 0,
       "products: at most this many slices of the j range, added by a second pass (0: enough for two waves)"},
      {"SB", {16, 32, 64}, 64,
       "symv / hemv: the side of the blocks a group reads once, or the width of a column strip (at most WGS)"},
      {"VW", {1, 2, 4}, 4,
       "dense gemv and ger, real types: elements per access along A's contiguous direction (at most 16 bytes, 32 "
       "on CPUs)"},
      {"FUSE", {0, 1}, 1,
       "dense gemv split in slices: the last group of a row block adds them (1), or a second pass does (0)"},
      {"RC", {1, 2, 4, 8, 16, 32}, 8, "dense ger: columns each work-item updates"},
      // PoCL 3.1 (2-core EPYC): geru c32 1440^2 0.45-0.51x CLBlast on
      // blas2_rank, 0.67-0.80x by packs of 2; c64 1024^2 1.7-3.5 -> 1.0-2.0 ms; packs of 1
      // were 2-3x slower than blas2_rank for both. GPUs keep 0 until measured
      // (NVIDIA's OpenCL compiler aborted on complex ger's other loops, which
      // fails every blas2 routine of the type).
      {"CPAIRS", {0, 1, 2, 4}, caps.type == DeviceType::CPU ? 4 : 0,
       "complex geru / gerc and gemv in dense storage on OpenCL: packs of CPAIRS elements read as 2 CPAIRS "
       "reals (blas2_ger_pairs, blas2_gemv_r_pairs, blas2_gemv_c_pairs; 0: blas2_rank and the complex loops)"},
      // 0 everywhere: on the H100 (untuned) the strips read f32 symv at 0.10
      // of the copy ceiling, the blocks at 0.40.
      {"STRIP", {0, 256, 512, 1024, 2048, 4096}, 0,
       "symv / hemv in dense storage: rows of an SB-wide column strip per group (0: a group per SB x SB block)"},
      {"WALK", {0, 2, 4, 8, 16, 32}, 0,
       "real symv in dense storage, blocks in registers (WGS <= SB^2 / 4), no STRIP: SB x SB tiles of a block "
       "column per group, the column sums kept across them (0: a group per block)"},
      {"GEMM", {0, 20, 22, 24, 26, 28, 62}, 0,
       "dense gemv of f32 / f64, increments positive: run as a GEMM whose N is 1 (GEMM's candidates and entries, "
       "the thin kernel) where the matrix has at most 2^GEMM elements (0: never)"},
  };
}

std::string Blas2Family::check(const Params& p, const Capabilities& caps, const Blas2Problem& problem) const {
  if (std::string why = check_candidates(p, caps); !why.empty()) return why;
  return limits(p, caps, problem);
}

std::string Blas2Family::limits(const Params& p, const Capabilities& caps, const Blas2Problem& problem) const {
  const std::size_t wgs = std::size_t(p.at("WGS"));
  if (wgs > caps.max_work_group_size) return "WGS exceeds the device's work-group limit";
  if (wgs > caps.max_work_item_sizes[0]) return "WGS exceeds the device's work-item limit";
  const std::size_t sb = std::size_t(p.at("SB"));
  const std::size_t es = dtype_size(blas_compute_dtype(problem.dtype));  // local memory holds TYPE
  if ((wgs + sb * (sb + 1)) * es > local_limit(caps))
    return "the group's sums and symv's block exceed local memory";
  // blas2_symv_strips (in every problem's program): the column sums of half
  // the group, and the arrival flags.
  if (sb * (wgs / 2 + 1) * es + wgs * 4 > local_limit(caps))
    return "symv's strip sums exceed local memory";
  if (std::size_t(p.at("TJ")) > wgs || std::size_t(p.at("CTJ")) > wgs) return "more work-items per row than WGS";
  if (sb > wgs) return "SB exceeds WGS";
  if (p.at("WALK") > 0 && p.at("STRIP") > 0) return "WALK and STRIP are two ways of one product";
  // Elsewhere (gemv, ger, complex symv, groups too large for the register
  // tiles) WALK would change nothing: the tuner runs no program twice.
  if (p.at("WALK") > 0 && !walks(p, problem)) return "WALK applies to real symv with WGS <= SB^2 / 4 only";
  // The walk's tiles in registers: at most 4 x 8 elements per work-item.
  if (p.at("WALK") > 0 && p.at("SB") * p.at("SB") > 32 * std::int64_t(wgs))
    return "WALK's tile exceeds 32 elements per work-item";
  // (GEMM is not checked: an entry's threshold must not keep it from the
  // calls above it, which fit sends to the packs with GEMM 0.)
  return "";
}

std::int64_t ger_columns_vw1(std::int64_t rc, const Capabilities& caps) {
  return caps.backend == Backend::CUDA ? std::max<std::int64_t>(rc, 8) : 1;
}

Params Blas2Family::fit(const Params& tuned, const Capabilities& caps, const Blas2Problem& problem) const {
  const std::size_t pack_cap = blas_pack_bytes(caps);
  const auto adjust = [&](Params p) {
    // Halve symv's block, then the group, until the device takes them (CPUs
    // through PoCL may cap the group; complex double blocks need local memory).
    // (limits(), not check(): halving keeps candidates, and the final check
    // below tests them; the candidates' list was most of a small call's host time.)
    while (p.at("SB") > 16 && !limits(p, caps, problem).empty()) p["SB"] /= 2;
    // symv's strips keep SB elements of x and SB column sums per work-item in
    // registers: at most 256 bytes of each (f32 64, f64 and c32 32, c64 16).
    if (problem.blocked && p.at("STRIP") > 0)
      while (p.at("SB") > 16 && std::size_t(p.at("SB")) * dtype_size(problem.dtype) > 256) p["SB"] /= 2;
    while (p.at("WGS") > 64 && !limits(p, caps, problem).empty()) p["WGS"] /= 2;
    p["TJ"] = std::min(p.at("TJ"), p.at("WGS"));
    p["CTJ"] = std::min(p.at("CTJ"), p.at("WGS"));
    // Packs of at most blas_pack_bytes (PoCL f64 by packs of 4: gemv_t 0.70 ->
    // 0.46 ms); complex elements are pairs already.
    if (is_complex(problem.dtype)) p["VW"] = 1;
    while (std::size_t(p.at("VW")) * dtype_size(problem.dtype) > pack_cap) p["VW"] /= 2;
    // Complex pairs of reals: OpenCL only (CUDA runs blas2_ger's VW 1 loop),
    // ger and dense gemv (blas2_gemv_r_pairs, blas2_gemv_c_pairs).
    if (!is_complex(problem.dtype) || caps.backend == Backend::CUDA || !Blas2Family::pairs(problem))
      p["CPAIRS"] = 0;
    // A pack of 2 CPAIRS reals within the same bytes.
    while (p.at("CPAIRS") > 1 && std::size_t(2 * p.at("CPAIRS")) * dtype_size(real_dtype(problem.dtype)) > pack_cap)
      p["CPAIRS"] /= 2;
    if (p.at("VW") == 1 && !p.at("CPAIRS")) p["RC"] = ger_columns_vw1(p.at("RC"), caps);
    if (!walks(p, problem)) p["WALK"] = 0;  // one program whatever was tuned
    if (!as_gemm(p, problem)) p["GEMM"] = 0;  // the same
    // f16's dense gemv and ger read packs of VW halves (the VW halving above
    // counts its 2-byte elements); HALF compiles no strips.
    if (problem.dtype == DType::F16) p["STRIP"] = 0;
    return p;
  };
  const Params p = adjust(complete(tuned, caps));
  return check(p, caps, problem).empty() ? p : adjust(defaults(caps));
}

std::size_t Blas2Family::threads_per_row(const Params& p, const Blas2Problem& problem) const {
  return std::size_t(problem.row_major ? p.at("TJ") : p.at("CTJ"));
}

std::size_t Blas2Family::rows_per_group(const Params& p, const Blas2Problem& problem) const {
  const std::size_t rpg = std::size_t(p.at("WGS")) / threads_per_row(p, problem);
  return problem.row_major ? rpg : rpg * vector_width(p, problem);
}

std::size_t Blas2Family::slices(const Params& p, const Capabilities& caps, const Blas2Problem& problem) const {
  if (!blas2_is_product(problem.routine)) return 1;
  if (problem.blocked) return symv_blocks(p, problem.rows) + (p.at("STRIP") > 0 ? strip_chunks(p, problem.rows) : 0);
  const std::size_t wgs = std::size_t(p.at("WGS")), tj = threads_per_row(p, problem);
  const std::size_t rpg = rows_per_group(p, problem);
  const std::size_t rows = std::size_t(std::max<std::int64_t>(problem.rows, 1));
  const std::size_t cols = std::size_t(std::max<std::int64_t>(problem.cols, 1));
  const std::size_t groups = (rows + rpg - 1) / rpg;
  // At least 4 TJ columns per slice: a slice is worth its partial sums.
  const std::size_t most = std::max<std::size_t>(1, cols / (4 * tj));
  std::size_t want = std::size_t(p.at("SLICES"));
  if (want == 0) {
    const std::size_t wave = std::size_t(caps.compute_units ? caps.compute_units : 1) * resident_per_unit(caps);
    // Two waves of groups; for dense gemv, whose packs keep four loads in
    // flight per work-item and whose slices' sums the last group adds, as many
    // slices as fit in one wave (one where the row blocks fill it).
    const std::size_t target = std::max<std::size_t>(1, (problem.dense ? 1 : 2) * wave / wgs);
    want = std::min<std::size_t>(64, problem.dense ? target / groups : (target + groups - 1) / groups);
  }
  return std::clamp<std::size_t>(want, 1, most);
}

Geometry Blas2Family::geometry(const Params& p, const Capabilities& caps, const Blas2Problem& problem) const {
  const std::size_t wgs = std::size_t(p.at("WGS"));
  const std::size_t rows = std::size_t(std::max<std::int64_t>(problem.rows, 1));
  const std::size_t cols = std::size_t(std::max<std::int64_t>(problem.cols, 1));
  Geometry g;
  g.dims = 2;
  g.local[0] = wgs;
  if (problem.blocked && p.at("STRIP") > 0) {
    // (chunk, strip); groups past their strip's chunks only take part in the barriers.
    g.global[0] = strip_chunks(p, problem.rows) * wgs;
    g.global[1] = symv_blocks(p, problem.rows);
  } else if (walks(p, problem)) {
    // (chunk, block column); groups past their column's chunks walk nothing.
    g.global[0] = walk_chunks(p, problem.rows) * wgs;
    g.global[1] = symv_blocks(p, problem.rows);
  } else if (problem.blocked) {
    const std::size_t nb = symv_blocks(p, problem.rows);
    g.dims = 1;
    g.global[0] = nb * (nb + 1) / 2 * wgs;
  } else if (blas2_is_product(problem.routine)) {
    const std::size_t rpg = rows_per_group(p, problem);
    g.global[0] = (rows + rpg - 1) / rpg * wgs;
    g.global[1] = slices(p, caps, problem);
  } else if (problem.dense) {
    // A pack of VW along the contiguous direction per work-item, RC columns each.
    const std::size_t vw = vector_width(p, problem), rc = std::size_t(p.at("RC"));
    const std::size_t e = problem.row_major ? cols : rows, f = problem.row_major ? rows : cols;
    g.global[0] = round_up((e + vw - 1) / vw, wgs);
    g.global[1] = std::min<std::size_t>((f + rc - 1) / rc, 65535);
  } else {
    // The first dimension along the contiguous direction (row_major: j).
    const std::size_t e = problem.row_major ? cols : rows, f = problem.row_major ? rows : cols;
    g.global[0] = round_up(e, wgs);
    g.global[1] = std::min<std::size_t>(f, 65535);
  }
  return g;
}

Defines Blas2Family::defines(const Params& p, const Blas2Problem& problem) const {
  Defines d = blas_type_defines(problem.dtype);
  d.insert(d.end(), {{"WGS", std::to_string(p.at("WGS"))},
                     {"SB", std::to_string(p.at("SB"))},
                     {"VW", std::to_string(p.at("VW"))},  // one program for every path of the type
                     {"CPW", std::to_string(p.at("CPAIRS"))},  // complex ger's pairs (blas2_ger_pairs)
                     // real f64: symv / hemv's 16-byte packs (SVW) and blas2_dense.cl's loops
                     {"F64", problem.dtype == DType::F64 ? "1" : "0"}});
  return d;
}

std::string Blas2Family::entry(Blas2Routine r) {
  using R = Blas2Routine;
  switch (r) {
    case R::Gemv: case R::Gbmv: return "blas2_mv_ge";  // dense gemv: blas2_gemv_c / _r (run_blas2)
    case R::Symv: case R::Hemv: case R::Sbmv: case R::Hbmv: return "blas2_mv_sy";
    case R::Spmv: case R::Hpmv: return "blas2_mv_sp";
    default: return "blas2_rank";  // dense ger / geru / gerc: blas2_ger (run_blas2)
  }
}

KernelSource Blas2Family::program(const Params& p, const Blas2Problem& problem) const {
  return {source(), blas_program_text(source()), defines(p, problem), entry(problem.routine)};
}

namespace {
std::string size_class(std::int64_t elements) {
  return elements <= (1 << 16) ? "/n<=2^16" : elements <= (1 << 22) ? "/n<=2^22" : "/n>2^22";
}
}  // namespace

std::string Blas2Family::bucket(const Blas2Problem& problem) const {
  const std::string kind = !blas2_is_product(problem.routine) ? "rank"
                           : problem.blocked                      ? "symv"
                           : problem.row_major                    ? "mv-rows"
                                                                  : "mv-cols";
  return kind + size_class(problem.rows * problem.cols);
}

std::vector<std::string> Blas2Family::buckets() const {
  std::vector<std::string> out;
  for (const char* kind : {"mv-rows", "mv-cols", "symv", "rank"})
    for (const char* s : {"/n<=2^16", "/n<=2^22", "/n>2^22"}) out.push_back(std::string(kind) + s);
  return out;
}

Blas2Problem Blas2Family::make_example(DType dtype, const std::string& bucket, const Capabilities& caps) const {
  Blas2Problem pr;
  pr.dtype = dtype;
  pr.routine = bucket.rfind("rank", 0) == 0 ? (is_complex(dtype) ? Blas2Routine::Geru : Blas2Routine::Ger)
                                            : Blas2Routine::Gemv;
  pr.row_major = bucket.rfind("mv-cols", 0) != 0 && bucket.rfind("symv", 0) != 0;
  if (bucket.rfind("symv", 0) == 0) {
    pr.routine = is_complex(dtype) ? Blas2Routine::Hemv : Blas2Routine::Symv;
    pr.blocked = true;
  }
  std::int64_t n = bucket.find("2^16") != std::string::npos    ? (1 << 8)
                   : bucket.find("<=2^22") != std::string::npos ? (1 << 11)
                                                                 : (1 << 13);
  // The matrix within a quarter of the device's largest allocation.
  while (n > 16 && std::uint64_t(n) * std::uint64_t(n) * dtype_size(dtype) > caps.max_alloc_bytes / 4) n /= 2;
  pr.rows = pr.cols = n;
  return pr;
}

std::vector<DType> Blas2Family::dtypes(const Capabilities& caps) const { return blas_family_dtypes(caps); }

}  // namespace optune::detail
