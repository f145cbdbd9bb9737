// The case of each family, by the family's identity.
#include <map>
#include <mutex>

#include "kernels/blas/blas_extra.hpp"
#include "kernels/blas/blas_tri.hpp"
#include "kernels/families.hpp"
#include "kernels/blas/blas3.hpp"
#include "tuning/cases/cases.hpp"

namespace optune::detail {

namespace {
std::mutex registered_mutex;
std::map<const KernelFamily*, CaseMaker>& registered() {
  static std::map<const KernelFamily*, CaseMaker> r;
  return r;
}
}  // namespace

void register_case(const KernelFamily& family, CaseMaker maker) {
  std::lock_guard lock(registered_mutex);
  registered()[&family] = std::move(maker);
}

std::unique_ptr<TuningCase> make_case(const KernelFamily& family, const Queue& queue, const Problem& problem) {
  {
    std::lock_guard lock(registered_mutex);
    if (auto it = registered().find(&family); it != registered().end()) return it->second(queue, problem);
  }
  if (&family == &families::copy()) return cases::copy(queue, problem);
  if (&family == &families::peak()) return cases::peak(queue, problem);
  if (&family == &families::peak_mma()) return cases::peak_mma(queue, problem);
  if (&family == &families::elementwise()) return cases::elementwise(queue, problem);
  if (&family == &families::reduce_rows() || &family == &families::reduce_cols())
    return cases::reduce(family, queue, problem);
  if (&family == &families::norm_rows()) return cases::norm_rows(queue, problem);
  if (&family == &families::softmax_cols()) return cases::softmax_cols(queue, problem);
  if (&family == &families::gemm_direct() || &family == &families::gemm_tiled() ||
      &family == &families::gemm_mma() || &family == &families::gemm_wgmma() || &family == &families::gemm_thin() ||
      &family == &families::gemm_routine())
    return cases::gemm(family, queue, problem);
  if (&family == &families::conv_direct() || &family == &families::conv_depthwise() ||
      &family == &families::conv_depthwise_image() || &family == &families::conv_winograd() ||
      &family == &families::conv_winograd_fused() || &family == &families::conv_im2col() ||
      &family == &families::conv_implicit() || &family == &families::conv_routine())
    return cases::conv(family, queue, problem);
  if (&family == &families::blas1()) return cases::blas1(queue, problem);
  if (&family == &families::blas_tri()) return cases::blas_tri(queue, problem);
  if (&family == &families::blas_extra()) return cases::blas_extra(queue, problem);
  if (&family == &families::blas3()) return cases::blas3(queue, problem);
  if (&family == &families::blas2()) return cases::blas2(queue, problem);
  throw Error(Status::NotFound, "no tuning case for the family " + family.name());
}

}  // namespace optune::detail
