#include "kernels/descriptor.hpp"

#include <algorithm>
#include <charconv>

#include <nlohmann/json.hpp>
#include <sstream>

#include "runtime/embedded.hpp"

namespace optune::detail {

Parameter register_cap_parameter(const Capabilities& caps) {
  std::vector<std::int64_t> values{0};
  if (takes_register_cap(caps)) values.insert(values.end(), {32, 40, 48, 56, 64, 72, 80, 96, 128, 168});
  return {"REGS", values, 0,
          "CUDA and NVIDIA's OpenCL: registers per work-item the compiler may use (__launch_bounds__ or "
          "-cl-nv-maxrregcount; 0: its own choice)"};
}

void add_register_cap(Defines& d, const Params& p) {
  auto it = p.find("REGS");
  if (it != p.end() && it->second > 0) d.emplace_back("OPTUNE_REG_CAP", std::to_string(it->second));
}

std::string KernelFamily::check_candidates(const Params& p, const Capabilities& caps) const {
  for (const Parameter& def : parameters(caps)) {
    auto it = p.find(def.name);
    if (it == p.end()) return "parameter " + def.name + " missing";
    bool known = false;
    for (auto v : def.values) known |= v == it->second;
    if (!known) return def.name + "=" + std::to_string(it->second) + " is not a candidate";
  }
  return "";
}

Params KernelFamily::defaults(const Capabilities& caps) const {
  Params p;
  for (const Parameter& def : parameters(caps)) p[def.name] = def.default_value;
  return p;
}

bool KernelFamily::knows_bucket(const std::string& b) const {
  const std::vector<std::string> all = buckets();
  return std::find(all.begin(), all.end(), b) != all.end();
}

std::string KernelFamily::trust_bucket(const std::string& b) const {
  const std::vector<std::string> all = buckets();
  return all.empty() ? b : all.front();
}

Params KernelFamily::complete(const Params& in, const Capabilities& caps) const {
  Params p;
  for (const Parameter& def : parameters(caps)) {
    auto it = in.find(def.name);
    p[def.name] = it == in.end() ? def.default_value : it->second;
  }
  return p;
}

std::string embedded_kernel_text(const std::string& source) { return std::string(kernel_source(source)); }

KernelPtr compile_kernel(const Queue& queue, const KernelSource& src) {
  return get_program_from_text(*queue.context().impl(), src.label, src.text, src.defines)->kernel(src.entry);
}

std::string c_type_name(DType t) {
  switch (t) {
    case DType::F32: return "float";
    case DType::F16: return "half";
    case DType::F64: return "double";
    case DType::I32: return "int";
    case DType::I8: return "char";
    case DType::U8: return "uchar";
    case DType::BF16: return "bf16";  // the prelude's ushort typedef
    case DType::C32: return "float2";  // (re, im), the prelude's complex helpers
    case DType::C64: return "double2";
  }
  return "float";
}

std::uint64_t local_limit(const Capabilities& caps) {
  std::uint64_t l = caps.local_mem_bytes ? caps.local_mem_bytes : 32768;
  if (caps.backend == Backend::CUDA) l = std::min<std::uint64_t>(l, 48 * 1024);
  return l;
}

std::size_t round_up(std::size_t x, std::size_t m) { return m ? (x + m - 1) / m * m : x; }

std::size_t resident_per_unit(const Capabilities& caps) {
  if (caps.max_threads_per_cu) return caps.max_threads_per_cu;
  if (caps.architecture.rfind("sm_", 0) == 0) return 2048;  // NVIDIA through OpenCL
  return caps.max_work_group_size ? caps.max_work_group_size : 256;
}

std::string params_to_json(const Params& p) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [k, v] : p) j[k] = v;
  return j.dump();
}

std::optional<std::int64_t> parse_param_value(const std::string& text) {
  std::int64_t v = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (text.empty() || ec != std::errc() || ptr != end) return std::nullopt;
  return v;
}

Params params_from_json(const std::string& text) {
  Params p;
  try {
    auto j = nlohmann::json::parse(text);
    if (!j.is_object()) throw Error(Status::InvalidArgument, "parameters must be a JSON object: " + text);
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (!it.value().is_number_integer() ||
          (it.value().is_number_unsigned() && it.value().get<std::uint64_t>() > std::uint64_t(INT64_MAX)))
        throw Error(Status::InvalidArgument, "parameter " + it.key() + " must be a 64-bit integer in " + text);
      p[it.key()] = it.value().get<std::int64_t>();
    }
  } catch (const nlohmann::json::exception& e) {
    throw Error(Status::InvalidArgument, std::string("bad parameter JSON: ") + e.what());
  }
  return p;
}

}  // namespace optune::detail
