#include "kernels/families.hpp"
#include "kernels/blas/blas3.hpp"

#include "kernels/blas/host_blas.hpp"
#include "kernels/blas/blas_extra.hpp"
#include "kernels/blas/blas_tri.hpp"

namespace optune::detail::families {

const CopyFamily& copy() { static const CopyFamily f; return f; }
const PeakFamily& peak() { static const PeakFamily f; return f; }
const PeakMmaFamily& peak_mma() { static const PeakMmaFamily f; return f; }
const ElementwiseFamily& elementwise() { static const ElementwiseFamily f; return f; }
const ReduceRowsFamily& reduce_rows() { static const ReduceRowsFamily f; return f; }
const ReduceColsFamily& reduce_cols() { static const ReduceColsFamily f; return f; }
const NormRowsFamily& norm_rows() { static const NormRowsFamily f; return f; }
const SoftmaxColsFamily& softmax_cols() { static const SoftmaxColsFamily f; return f; }
const GemmDirectFamily& gemm_direct() { static const GemmDirectFamily f; return f; }
const GemmTiledFamily& gemm_tiled() { static const GemmTiledFamily f; return f; }
const GemmMmaFamily& gemm_mma() { static const GemmMmaFamily f; return f; }
const GemmWgmmaFamily& gemm_wgmma() { static const GemmWgmmaFamily f; return f; }
const GemmThinFamily& gemm_thin() { static const GemmThinFamily f; return f; }
const GemmRoutineFamily& gemm_routine() { static const GemmRoutineFamily f; return f; }
const ConvDirectFamily& conv_direct() { static const ConvDirectFamily f; return f; }
const ConvDepthwiseFamily& conv_depthwise() { static const ConvDepthwiseFamily f; return f; }
const ConvDepthwiseImageFamily& conv_depthwise_image() { static const ConvDepthwiseImageFamily f; return f; }
const ConvWinogradFamily& conv_winograd() { static const ConvWinogradFamily f; return f; }
const ConvWinoFusedFamily& conv_winograd_fused() { static const ConvWinoFusedFamily f; return f; }
const ConvIm2colFamily& conv_im2col() { static const ConvIm2colFamily f; return f; }
const ConvImplicitFamily& conv_implicit() { static const ConvImplicitFamily f; return f; }
const ConvRoutineFamily& conv_routine() { static const ConvRoutineFamily f; return f; }
const Blas1Family& blas1() { static const Blas1Family f; return f; }
const Blas3Family& blas3() { static const Blas3Family f; return f; }
const Blas2Family& blas2() { static const Blas2Family f; return f; }

const std::vector<const KernelFamily*>& all() {
  static const std::vector<const KernelFamily*> every{&copy(),        &peak(),       &peak_mma(),     &elementwise(),  &reduce_rows(),
                                                      &reduce_cols(), &norm_rows(),  &softmax_cols(), &gemm_direct(),
                                                      &gemm_tiled(),  &gemm_mma(),   &gemm_wgmma(),   &gemm_thin(),
                                                      &gemm_routine(), &conv_direct(), &conv_depthwise(),
                                                      &conv_depthwise_image(), &conv_winograd(), &conv_winograd_fused(),
                                                      &conv_im2col(), &conv_implicit(),
                                                      &conv_routine(), &blas1(), &blas_tri(), &blas_extra(),
                                                      &host_blas(), &blas3(), &blas2()};
  return every;
}

const KernelFamily& find(const std::string& name) {
  std::string names;
  for (const KernelFamily* f : all()) {
    if (f->name() == name) return *f;
    names += (names.empty() ? "" : ", ") + f->name();
  }
  throw Error(Status::NotFound, "no kernel family '" + name + "' (families: " + names + ")");
}

}  // namespace optune::detail::families
