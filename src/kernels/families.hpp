// Every kernel family, reached by type: ops and the tuning cases call the
// accessor of the family they run (families::gemm_tiled(), ...). The tools
// and the database, which get a family's name as text (optune tune FAMILY,
// a database entry), look it up with find().
#pragma once

#include <string>
#include <vector>

#include "kernels/blas/blas1.hpp"
#include "kernels/blas/blas2.hpp"
#include "kernels/conv/conv.hpp"
#include "kernels/copy/copy.hpp"
#include "kernels/elementwise/elementwise.hpp"
#include "kernels/gemm/gemm.hpp"
#include "kernels/norm/norm.hpp"
#include "kernels/peak/peak.hpp"
#include "kernels/reduce/reduce.hpp"
#include "kernels/softmax/softmax.hpp"

namespace optune::detail::families {

const CopyFamily& copy();
const PeakFamily& peak();
const PeakMmaFamily& peak_mma();
const ElementwiseFamily& elementwise();
const ReduceRowsFamily& reduce_rows();
const ReduceColsFamily& reduce_cols();
const NormRowsFamily& norm_rows();
const SoftmaxColsFamily& softmax_cols();
const GemmDirectFamily& gemm_direct();
const GemmTiledFamily& gemm_tiled();
const GemmMmaFamily& gemm_mma();
const GemmWgmmaFamily& gemm_wgmma();
const GemmThinFamily& gemm_thin();
const GemmRoutineFamily& gemm_routine();
const ConvDirectFamily& conv_direct();
const ConvDepthwiseFamily& conv_depthwise();
const ConvDepthwiseImageFamily& conv_depthwise_image();
const ConvWinogradFamily& conv_winograd();
const ConvWinoFusedFamily& conv_winograd_fused();
const ConvIm2colFamily& conv_im2col();
const ConvImplicitFamily& conv_implicit();
const ConvRoutineFamily& conv_routine();
const Blas1Family& blas1();
const Blas2Family& blas2();

// Every family, in a stable order.
const std::vector<const KernelFamily*>& all();
// By name; Error(NotFound) listing the families.
const KernelFamily& find(const std::string& name);

}  // namespace optune::detail::families
