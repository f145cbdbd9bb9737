// Descriptor of the blas_extra family (blas/blas_extra.cl): CLBlast's extra
// routines had, omatcopy and axpy_batched in f32, f64, c32 and c64. One
// program per type and WGS holds every entry point; the grid (at most
// WAVES waves of the device, grid-stride) is the host's. im2col and col2im
// (also f16) are the program of blas/im2col.cl, the source the convolution's
// im2col shares; their buckets are "im2col/..." and "col2im/..." by the
// patch matrix's elements.
#pragma once

#include "kernels/descriptor.hpp"

namespace optune::detail {

enum class BlasExtraRoutine : int { Had, Omatcopy, AxpyBatched, Im2col, Col2im };
// im2col and col2im: the patch routines (blas/im2col.cl, their own buckets and PV).
inline bool is_patches(BlasExtraRoutine r) { return r == BlasExtraRoutine::Im2col || r == BlasExtraRoutine::Col2im; }

struct BlasExtraProblem {
  DType dtype = DType::F32;
  BlasExtraRoutine routine = BlasExtraRoutine::Had;
  // Per batch: n (had, axpy_batched), rows x cols (omatcopy) or the patch
  // matrix's elements (im2col, col2im).
  std::int64_t elements = 0;
  std::int64_t batch = 1;
  // im2col, col2im: the larger of the image's and the matrix's elements (the
  // kernels' index arithmetic is 32-bit below 2^32); 0 reads as `elements`.
  std::int64_t indices = 0;
  // Patches (im2col) or image-row elements (col2im) per work-item: the
  // kernel's PV, as run_blas_patches chose it from the entry's PV (im2col:
  // also from the element size and the alignment).
  std::int64_t pack = 1;
  std::vector<std::int64_t> sizes() const { return {elements, batch}; }
  std::map<std::string, std::int64_t> fields() const { return {{"routine", std::int64_t(routine)}}; }
};

// The im2col / col2im examples (make_example, the tuning case): `channels`
// of 32 x 32 with 3 x 3 patches, pad 1, stride 1, dilation 1, so the patch
// matrix holds channels x kPatchPlane elements.
constexpr std::int64_t kPatchSide = 32, kPatchPlane = 9 * kPatchSide * kPatchSide;
std::int64_t blas_extra_patch_channels(std::int64_t elements);

class BlasExtraFamily : public FamilyOf<BlasExtraProblem> {
 public:
  std::string name() const override { return "blas_extra"; }
  std::string source() const override { return "blas/blas_extra.cl"; }
  std::string kernel_name() const override { return "extra_had"; }
  std::vector<Parameter> parameters(const Capabilities& caps) const override;
  std::string check(const Params& p, const Capabilities& caps, const BlasExtraProblem& problem) const override;
  Params fit(const Params& tuned, const Capabilities& caps, const BlasExtraProblem& problem) const override;
  Geometry geometry(const Params& p, const Capabilities& caps, const BlasExtraProblem& problem) const override;
  Defines defines(const Params& p, const BlasExtraProblem& problem) const override;
  KernelSource program(const Params& p, const BlasExtraProblem& problem) const override;
  std::string bucket(const BlasExtraProblem& problem) const override;
  BlasExtraProblem make_example(DType dtype, const std::string& bucket, const Capabilities& caps) const override;
  std::vector<std::string> buckets() const override;
  std::vector<DType> dtypes(const Capabilities& caps) const override;
};

}  // namespace optune::detail

namespace optune::detail::families {
const BlasExtraFamily& blas_extra();  // listed by families::all()
}  // namespace optune::detail::families
