// What the GEMM families share (size buckets, example problems, device
// limits) and the routine-level family: the size from which the tiled path
// (helpers + gemm_tiled) replaces the direct kernel.
#include <algorithm>
#include <cmath>

#include "kernels/gemm/gemm.hpp"

namespace optune::detail {

namespace gemm {

namespace {
double volume(const Problem& pr) {
  return double(pr.sizes.at(0)) * double(pr.sizes.at(1)) * double(pr.sizes.at(2));
}
bool is_nvidia(const Capabilities& caps) {
  return caps.architecture.rfind("sm_", 0) == 0 || caps.vendor.find("NVIDIA") != std::string::npos;
}
}  // namespace

// Buckets by the shape of one product: many small products ("batched"),
// one thin dimension ("skinny"), else by the product's volume m n k.
std::string bucket(const Problem& pr) {
  const std::int64_t m = pr.sizes.at(0), n = pr.sizes.at(1), k = pr.sizes.at(2);
  const std::int64_t batch = pr.sizes.size() > 3 ? pr.sizes[3] : 1;
  const double v = volume(pr);
  if (batch >= 16 && v <= 16777216.0) return "batched";
  const std::int64_t thin = std::min(m, n), wide = std::max({m, n, k});
  if (thin <= 64 && wide >= 16 * thin) return "skinny";
  if (v <= 16777216.0) return "small";      // up to 256^3
  if (v <= 1073741824.0) return "medium";   // up to 1024^3
  return "large";
}

std::vector<std::string> buckets() { return {"small", "medium", "large", "skinny", "batched"}; }

Problem example(DType dtype, const std::string& b, const Capabilities& caps) {
  const bool cpu = caps.type == DeviceType::CPU;
  std::int64_t m = 128, n = 128, k = 128, batch = 1;
  if (b == "medium") m = n = k = cpu ? 512 : 1024;
  if (b == "large") m = n = k = cpu ? 1536 : 4096;
  if (b == "skinny") m = k = cpu ? 1024 : 4096, n = 32;
  if (b == "batched") m = n = k = 64, batch = cpu ? 256 : 4096;
  Problem pr;
  pr.dtype = dtype;
  pr.sizes = {m, n, k, batch};
  pr.extra = {{"trans_a", 0}, {"trans_b", 0}, {"comp_half", dtype == DType::F16 && caps.fp16 ? 1 : 0}, {"list", 0}};
  return pr;
}

std::vector<DType> dtypes(const Capabilities& caps) {
  std::vector<DType> out{DType::F32, DType::F16};
  if (caps.fp64) out.push_back(DType::F64);
  return out;
}

std::uint64_t local_limit(const Capabilities& caps) {
  std::uint64_t l = caps.local_mem_bytes ? caps.local_mem_bytes : 32768;
  if (caps.backend == Backend::CUDA) l = std::min<std::uint64_t>(l, 48 * 1024);
  return l;
}

std::size_t comp_bytes(const Problem& pr) {
  if (pr.dtype == DType::F64) return 8;
  return pr.dtype == DType::F16 && pr.get("comp_half") ? 2 : 4;
}

// CUDA has 2- and 4-lane vectors of 4-byte types and 2-lane ones of double
// and half; half storage read as float goes through vload_halfN (any width
// of the backend). f16 arithmetic on CUDA stays scalar along N (no
// scalar-times-half2 operator in the prelude).
bool vector_ok(const Capabilities& caps, const Problem& pr, std::int64_t vw, bool storage_only) {
  if (vw == 1) return true;
  const std::size_t bytes = comp_bytes(pr);
  if (std::size_t(vw) * bytes > 64) return false;
  if (caps.backend != Backend::CUDA) return true;
  if (vw > 4) return false;
  if (pr.dtype == DType::F16 && !pr.get("comp_half")) return true;
  if (bytes == 8 || bytes == 2) return vw <= 2 && !(bytes == 2 && !storage_only);
  return true;
}

std::string fits_group(const Capabilities& caps, std::int64_t x, std::int64_t y) {
  if (std::size_t(x * y) > caps.max_work_group_size) return "work-group exceeds the device's limit";
  if (std::size_t(x) > caps.max_work_item_sizes[0] || std::size_t(y) > caps.max_work_item_sizes[1])
    return "work-group exceeds the device's per-dimension limit";
  return "";
}

}  // namespace gemm

// ---- gemm_routine ----

std::vector<Parameter> GemmRoutineFamily::parameters(const Capabilities& caps) const {
  // The tiled path pays for its helper passes and its padding; below about
  // 384^3 on GPUs (CLBlast's default threshold is of that order) the direct
  // kernel is faster. PoCL: measured on a 2-core EPYC (see GemmTiledFamily).
  const std::int64_t dflt = caps.type == DeviceType::CPU ? 256 : gemm::is_nvidia(caps) ? 384 : 320;
  return {{"INDIRECT_MIN",
           {0, 64, 96, 128, 160, 192, 256, 320, 384, 448, 512, 640, 768, 1024, 1536, 2048, 4096, 1 << 20},
           dflt,
           "the tiled path runs when m n k >= INDIRECT_MIN^3 (0: always; 2^20: never)"}};
}

Geometry GemmRoutineFamily::geometry(const Params&, const Capabilities&, const Problem&) const { return Geometry{}; }

bool GemmRoutineFamily::use_tiled(const Params& p, const Problem& pr) {
  const double t = double(p.at("INDIRECT_MIN"));
  return gemm::volume(pr) >= t * t * t;
}

}  // namespace optune::detail
