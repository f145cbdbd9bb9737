// Programs built from embedded kernel sources, cached in the process and in
// the cache file, and a small launcher that binds arguments and enqueues.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "runtime/backend.hpp"

namespace optune::detail {

// NAME=VALUE pairs passed as -D options; order does not matter (they are sorted).
using Defines = std::vector<std::pair<std::string, std::string>>;

// "#define OPTUNE_HAS_FP16 1" ... for the probed capabilities.
std::string capability_macros(const Capabilities& caps);
// Capability macros, the backend prelude, the common prelude, then body under
// #line 1 "label" so compiler messages name the kernel file.
std::string assemble_text(const Capabilities& caps, const std::string& backend_prelude, std::string_view label,
                          std::string_view body);
// The full text compiled for a kernel source on a device: capability macros,
// the backend prelude, the common prelude, then the source under #line.
std::string assemble_source(const DeviceImpl& device, std::string_view source_name);
// The options string: the device's base options plus sorted -D defines
// (and what a register cap adds, below).
std::string assemble_options(const DeviceImpl& device, const Defines& defines);
// Whether a space-separated extension list (CL_DEVICE_EXTENSIONS) names this one.
bool has_extension(const std::string& extensions, std::string_view name);
// A register cap (the define OPTUNE_REG_CAP, a family's REGS): CUDA's prelude
// reads the define (__launch_bounds__); NVIDIA's OpenCL takes it as the
// option -cl-nv-maxrregcount (cl_nv_compiler_options); no other device has
// such a knob.
bool takes_register_cap(const Capabilities& caps);
std::string register_cap_options(const Capabilities& caps, const Defines& defines);

struct ProgramStats {
  bool from_memory = false;   // hit in this process
  bool from_disk = false;     // hit in the cache file
  bool from_embedded = false; // a cubin embedded at build time (embedded_cubins.hpp)
  double seconds = 0;         // time to get the program
};

// Programs this process has got, by where each came from (every context,
// since start): `optune bench startup` reports what a first call cost.
struct ProgramCounts {
  std::uint64_t compiled = 0;     // built from source (driver compile)
  std::uint64_t from_disk = 0;    // loaded from the cache file's binaries
  std::uint64_t from_memory = 0;  // found in the context's own map
  std::uint64_t from_embedded = 0;  // cubins embedded at build time, loaded without compiling
  // Where the time of the programs not found in memory went, in ns: reading
  // the cache file (its open is CacheFile::open_ns()), the driver loading
  // stored binaries (embedded or from the file), and compiles.
  std::uint64_t file_ns = 0, load_ns = 0, compile_ns = 0;
};
ProgramCounts program_counts();

// Compiles once per context (thread-safe) and once per machine when the
// binary cache is on (OPTUNE_CACHE=off disables the file). Throws
// Error(BuildFailure) with the compiler log.
ProgramPtr get_program(ContextImpl& ctx, std::string_view source_name, const Defines& defines,
                       ProgramStats* stats = nullptr);
// Same, for source text that is not embedded (custom expressions, tests).
ProgramPtr get_program_from_text(ContextImpl& ctx, std::string_view label, const std::string& text,
                                 const Defines& defines, ProgramStats* stats = nullptr);

// Checks geometry against device limits: throws Error(OutOfResources).
void check_geometry(const Capabilities& caps, const Geometry& g);

// Every kernel launch goes through here: checks the geometry, enqueues, and
// reports the kernel (with the parameters it was built with) to OPTUNE_TRACE.
Event launch_kernel(const Queue& queue, KernelImpl& kernel, const std::vector<KernelArg>& args, const Geometry& g,
                    const WaitList& wait, const std::map<std::string, std::int64_t>* params = nullptr);

// Binds arguments in order and launches:
//   Launch(queue, kernel).buf(x).arg(n).run(geometry)
class Launch {
 public:
  Launch(const Queue& queue, KernelPtr kernel) : queue_(queue), kernel_(std::move(kernel)) {}
  template <class T>
  Launch& buf(const Buffer<T>& b) {
    if (!b.valid()) throw Error(Status::InvalidArgument, "kernel argument is not a buffer");
    args_.push_back(KernelArg::buffer(*b.mem()));
    keep_.push_back(b.mem());
    return *this;
  }
  Launch& image(const Image2D& img);
  template <class T>
  Launch& arg(const T& v) {
    args_.push_back(KernelArg::scalar(v));
    return *this;
  }
  Event run(const Geometry& g, const WaitList& wait = {});

 private:
  Queue queue_;
  KernelPtr kernel_;
  std::vector<KernelArg> args_;
  std::vector<std::shared_ptr<MemImpl>> keep_;
};

}  // namespace optune::detail
