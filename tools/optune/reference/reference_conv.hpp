// The reference convolution of `optune bench conv`: cuDNN (libcudnn.so.9,
// else .8) on CUDA devices, loaded with dlopen at run time as cuBLAS is
// (reference_blas.hpp); CLBlast's convgemm on OpenCL devices, from the
// library clblast.cpp loads (clblast_conv.cpp). Each runs on optune's own
// buffers and queue, so one run times both on the same operands. Neither
// library is needed to build: the few entry points are declared in
// cudnn.cpp (the legacy-API ones of cudnn.h of v8 and v9: tensor, filter and
// convolution descriptors, cudnnFindConvolutionForwardAlgorithmEx,
// cudnnConvolutionForward) and clblast_conv.cpp (CLBlastSconvgemm,
// CLBlastHconvgemm).
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "optune/conv.hpp"
#include "optune/interop.hpp"
#include "reference_blas.hpp"

namespace optune::tool {

// One convolution prepared on its buffers: the algorithm the library's own
// search chose, and the call that enqueues it (the Event spans the
// library's work).
struct PreparedConv {
  std::string algorithm;  // "IMPLICIT_PRECOMP_GEMM", ...
  std::function<Event()> run;
};

class ReferenceConv {
 public:
  virtual ~ReferenceConv() = default;
  // Library, version and mode, e.g. "cuDNN 9.1.0 (f32 without TF32, ...)".
  virtual std::string name() const = 0;
  // "" when the library can run this descriptor and type, else why not.
  virtual std::string unsupported(const Conv2dDesc& d, DType t) const = 0;
  // Searches the algorithms on these buffers (input, weight, output: the
  // descriptor's layout; the weights K x C/groups x R x S read as K x R x S x
  // C/groups in NHWC, as the library's channels-last filters are, which
  // changes the values, not the work) and returns the prepared call. Throws
  // Error naming the library's status on failure. half_sums (f16): sum in
  // f16, as a row whose own sums were f16 did (cuDNN's compute type
  // CUDNN_DATA_HALF; CLBlast's Hconvgemm has one mode and ignores it).
  virtual PreparedConv prepare(const Queue& q, const Conv2dDesc& d, DType t, const interop::NativeBuffer& in,
                               const interop::NativeBuffer& wt, const interop::NativeBuffer& out,
                               bool half_sums = false) = 0;
};

// The library alone. OPTUNE_CUDNN_LIBRARY names a file to use instead of the
// search (libcudnn.so.9 and .8 on LD_LIBRARY_PATH and the system folders,
// then the CUDA toolkit's lib64).
LibraryProbe probe_cudnn();

struct ReferenceConvOpen {
  std::unique_ptr<ReferenceConv> conv;
  std::string reason;  // "not available: ..." when conv is null
};

// cuDNN for a CUDA queue, CLBlast's convgemm for an OpenCL one.
ReferenceConvOpen open_reference_conv(const Queue& q);
// CLBlast's convgemm alone (OpenCL queues; elsewhere why not).
ReferenceConvOpen open_clblast_conv(const Queue& q);

// The CLBlast library clblast.cpp loaded (OPTUNE_CLBLAST_LIBRARY, else
// libclblast.so.1): one entry point by name, nullptr where it is missing or
// the library did not load; and the name of a CLBlastStatusCode.
void* clblast_symbol(const char* name);
std::string clblast_status_text(int status);

}  // namespace optune::tool
