// NVRTC without a driver: the CUDA build of a kernel source exactly as the
// runtime assembles it, for CI machines that have the toolkit but no GPU.
// Needs no cuda.h, so tests can include it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "runtime/program.hpp"

namespace optune::detail {

// The CUDA side of the prelude (prelude_cuda.cl, prelude_cuda_math.cl) as the
// runtime puts it before prelude.cl, under #line directives.
const std::string& cuda_backend_prelude();
// The options every NVRTC build for arch ("sm_90") gets; a device's
// base_options() is this for its own architecture.
std::string cuda_base_options(const std::string& arch);
// Whether NVRTC can be loaded; the reason when not.
bool nvrtc_available(std::string* reason);
// Whether NVRTC finds cuda_fp16.h here (half arithmetic on CUDA needs it).
bool cuda_fp16_headers();
// The options that make NVRTC compile at its fastest level: " -Ofc=max"
// where the loaded NVRTC has it (12.8+), else "" (and "" without NVRTC).
std::string nvrtc_fastest_options();

// Compiles the embedded source source_name with NVRTC for arch, with the
// capability macros of caps_for_macros (its backend is taken as CUDA) and
// the defines, as the runtime would, except for the optimization level
// (NVRTC's fastest, -Ofc max, where NVRTC has it: the text is checked, no
// binary kept). Returns the compiler's log; throws
// Error(BuildFailure) with the log on failure, Error(BackendUnavailable)
// when NVRTC cannot be loaded.
std::string nvrtc_compile_check(std::string_view source_name, const Defines& defines,
                                const Capabilities& caps_for_macros, const std::string& arch);
// Same for source text that is not embedded; label names it in messages.
std::string nvrtc_compile_check_text(std::string_view label, std::string_view body, const Defines& defines,
                                     const Capabilities& caps_for_macros, const std::string& arch);

// The same build's binary (a cubin for sm_XY, PTX for compute_XY), with
// the runtime's options exactly.
std::vector<std::uint8_t> nvrtc_binary_text(std::string_view label, std::string_view body, const Defines& defines,
                                            const Capabilities& caps_for_macros, const std::string& arch);

}  // namespace optune::detail
