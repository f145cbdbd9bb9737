// NVRTC: compiling assembled kernel text for one architecture, shared by the
// CUDA context's build() and by the driverless compile check of CI.
#include <algorithm>
#include <cstring>
#include <sstream>

#include "runtime/cuda/cuda_objects.hpp"
#include "runtime/cuda/nvrtc_check.hpp"
#include "runtime/embedded.hpp"

namespace optune::detail {

namespace cu {

namespace {

constexpr std::string_view kArchOption = "--gpu-architecture=";
constexpr std::string_view kNeedSm90a = "-DOPTUNE_NEED_SM90A=1";

std::vector<std::string> split_options(const std::string& options) {
  std::vector<std::string> out;
  std::istringstream in(options);
  for (std::string word; in >> word;) out.push_back(word);
  return out;
}

// "sm_90a" -> 90; 0 when the text is not an sm_ architecture.
int arch_number(const std::string& arch) {
  if (arch.rfind("sm_", 0) != 0) return 0;
  int n = 0;
  for (std::size_t i = 3; i < arch.size() && std::isdigit((unsigned char)arch[i]); ++i) n = n * 10 + (arch[i] - '0');
  return n;
}

// The device's own sm_XY when this NVRTC knows it; else PTX for the newest
// architecture below it, which the driver compiles at load time. "" with
// *why when NVRTC cannot target the device at all.
std::string target_arch(const NvrtcApi& nv, const std::string& arch, std::string* why) {
  const int want = arch_number(arch);
  if (!want || !nv.nvrtcGetNumSupportedArchs || !nv.nvrtcGetSupportedArchs) return arch;
  int count = 0;
  if (nv.nvrtcGetNumSupportedArchs(&count) != NVRTC_SUCCESS || count <= 0) return arch;
  std::vector<int> archs(std::size_t(count), 0);
  if (nv.nvrtcGetSupportedArchs(archs.data()) != NVRTC_SUCCESS) return arch;
  if (std::find(archs.begin(), archs.end(), want) != archs.end()) return arch;
  int best = 0;
  for (int a : archs)
    if (a < want) best = std::max(best, a);
  if (best) return "compute_" + std::to_string(best);
  *why = "NVRTC " + std::to_string(nv.major) + "." + std::to_string(nv.minor) + " cannot compile for " + arch +
         " (oldest it supports: sm_" + std::to_string(*std::min_element(archs.begin(), archs.end())) + ")";
  return "";
}

class ProgramOwner {
 public:
  ProgramOwner(const NvrtcApi& nv, nvrtcProgram p) : nv_(nv), p_(p) {}
  ~ProgramOwner() { nv_.nvrtcDestroyProgram(&p_); }
  ProgramOwner(const ProgramOwner&) = delete;
  ProgramOwner& operator=(const ProgramOwner&) = delete;

 private:
  const NvrtcApi& nv_;
  nvrtcProgram p_;
};

// NVRTC follows an overload error with one note per candidate, three lines
// each; with the prelude's many vector operators that buries the error.
std::string drop_candidate_notes(const std::string& log) {
  std::istringstream in(log);
  std::string out, line;
  int skip = 0, dropped = 0;
  while (std::getline(in, line)) {
    if (skip > 0) {
      --skip;
      continue;
    }
    if (line.find("note #3322-D") != std::string::npos || line.find("note #3326-D") != std::string::npos ||
        line.find("note #3328-D") != std::string::npos) {
      skip = 2;  // the quoted source line and its caret
      ++dropped;
      continue;
    }
    out += line + "\n";
  }
  if (dropped) out += std::to_string(dropped) + " notes on non-matching overloads omitted\n";
  return out;
}

void nvrtc_check(const NvrtcApi& nv, nvrtcResult r, const char* what) {
  if (r != NVRTC_SUCCESS) throw Error(Status::BuildFailure, std::string(what) + ": " + nv.nvrtcGetErrorString(r));
}

}  // namespace

NvrtcOutput nvrtc_build(const std::string& text, const std::string& options) {
  std::string why;
  const NvrtcApi* nv = load_nvrtc(&why);
  if (!nv) throw Error(Status::BackendUnavailable, why);

  NvrtcOutput out;
  std::vector<std::string> args = split_options(options);
  auto arch_it =
      std::find_if(args.begin(), args.end(), [](const std::string& a) { return a.rfind(kArchOption, 0) == 0; });
  if (arch_it == args.end()) {
    out.log = "options name no " + std::string(kArchOption) + "...";
    return out;
  }
  std::string arch = arch_it->substr(kArchOption.size());
  // Architecture-specific features (wgmma, setmaxnreg) only exist in sm_90a
  // code, which runs on cc 9.0 and nothing else.
  if (std::find(args.begin(), args.end(), kNeedSm90a) != args.end()) {
    if (arch == "sm_90") arch = "sm_90a";
    if (arch != "sm_90a") {
      out.log = "the kernel needs sm_90a (OPTUNE_NEED_SM90A) and the device is " + arch;
      return out;
    }
  }
  out.arch = target_arch(*nv, arch, &out.log);
  if (out.arch.empty()) return out;
  *arch_it = std::string(kArchOption) + out.arch;
  if (!include_dir().empty()) args.push_back("-I" + include_dir());

  nvrtcProgram prog = nullptr;
  nvrtc_check(*nv, nv->nvrtcCreateProgram(&prog, text.c_str(), "optune.cu", 0, nullptr, nullptr),
              "nvrtcCreateProgram");
  ProgramOwner owner(*nv, prog);
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  const nvrtcResult r = nv->nvrtcCompileProgram(prog, int(argv.size()), argv.data());
  std::size_t log_size = 0;
  if (nv->nvrtcGetProgramLogSize(prog, &log_size) == NVRTC_SUCCESS && log_size > 1) {
    out.log.assign(log_size, '\0');
    if (nv->nvrtcGetProgramLog(prog, out.log.data()) != NVRTC_SUCCESS) out.log.clear();
    out.log.resize(std::strlen(out.log.c_str()));
    out.log = drop_candidate_notes(out.log);
    while (!out.log.empty() && out.log.back() == '\n') out.log.pop_back();
  }
  if (r != NVRTC_SUCCESS) {
    if (out.log.empty()) out.log = nv->nvrtcGetErrorString(r);
    return out;
  }
  std::size_t size = 0;
  if (out.arch.rfind("sm_", 0) == 0) {
    nvrtc_check(*nv, nv->nvrtcGetCUBINSize(prog, &size), "nvrtcGetCUBINSize");
    out.binary.resize(size);
    nvrtc_check(*nv, nv->nvrtcGetCUBIN(prog, reinterpret_cast<char*>(out.binary.data())), "nvrtcGetCUBIN");
  } else {
    nvrtc_check(*nv, nv->nvrtcGetPTXSize(prog, &size), "nvrtcGetPTXSize");  // counts the NUL
    out.binary.resize(size);
    nvrtc_check(*nv, nv->nvrtcGetPTX(prog, reinterpret_cast<char*>(out.binary.data())), "nvrtcGetPTX");
  }
  out.ok = true;
  return out;
}

}  // namespace cu

const std::string& cuda_backend_prelude() {
  static const std::string text = [] {
    std::string s;
    for (const char* part : {"common/prelude_cuda.cl", "common/prelude_cuda_math.cl"}) {
      s += "#line 1 \"" + std::string(part) + "\"\n";
      s += kernel_source(part);
      s += "\n";
    }
    return s;
  }();
  return text;
}

std::string cuda_base_options(const std::string& arch) {
  // No fast math: kernels that accept approximations say so with native_*.
  std::string s = "--std=c++17 -default-device " + std::string(cu::kArchOption) + arch;
  // The compiler's version is part of the options so that the program cache
  // key changes with it.
  if (const cu::NvrtcApi* nv = cu::load_nvrtc(nullptr))
    s += " -DOPTUNE_NVRTC_VERSION=" + std::to_string(nv->major * 1000 + nv->minor * 10);
  return s;
}

bool nvrtc_available(std::string* reason) { return cu::load_nvrtc(reason) != nullptr; }

bool cuda_fp16_headers() { return !cu::include_dir().empty(); }

std::string nvrtc_fastest_options() {
  const cu::NvrtcApi* nv = cu::load_nvrtc(nullptr);
  return nv && nv->major * 1000 + nv->minor * 10 >= 12080 ? " -Ofc=max" : "";
}

namespace {

// quick: a check of the text alone (nvrtc_compile_check), whose binary no
// one runs, at NVRTC's fastest optimization level where it has one (-Ofc,
// NVRTC 12.8+): the blas2 program went from 2.0 to 0.24 s.
cu::NvrtcOutput build_checked(std::string_view label, std::string_view body, const Defines& defines,
                              const Capabilities& caps_for_macros, const std::string& arch, bool quick) {
  Capabilities caps = caps_for_macros;
  caps.backend = Backend::CUDA;
  const std::string text = assemble_text(caps, cuda_backend_prelude(), label, body);
  // The defines as assemble_options appends them (it needs a device).
  Defines sorted = defines;
  std::sort(sorted.begin(), sorted.end());
  std::string options = cuda_base_options(arch);
  for (const auto& [k, v] : sorted) options += " -D" + k + "=" + v;
  if (quick) options += nvrtc_fastest_options();
  cu::NvrtcOutput out = cu::nvrtc_build(text, options);
  if (!out.ok)
    throw Error(Status::BuildFailure, "NVRTC build of " + std::string(label) + " failed (" +
                                          (out.arch.empty() ? arch : out.arch) + ", options: " + options + "):\n" +
                                          out.log);
  return out;
}

}  // namespace

std::string nvrtc_compile_check_text(std::string_view label, std::string_view body, const Defines& defines,
                                     const Capabilities& caps_for_macros, const std::string& arch) {
  return build_checked(label, body, defines, caps_for_macros, arch, true).log;
}

std::vector<std::uint8_t> nvrtc_binary_text(std::string_view label, std::string_view body, const Defines& defines,
                                            const Capabilities& caps_for_macros, const std::string& arch) {
  return build_checked(label, body, defines, caps_for_macros, arch, false).binary;
}

std::string nvrtc_compile_check(std::string_view source_name, const Defines& defines,
                                const Capabilities& caps_for_macros, const std::string& arch) {
  return nvrtc_compile_check_text(source_name, kernel_source(source_name), defines, caps_for_macros, arch);
}

}  // namespace optune::detail
