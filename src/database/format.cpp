#include "database/format.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <ctime>
#include <nlohmann/json.hpp>

#include "runtime/log.hpp"

namespace optune::detail {

namespace {

using nlohmann::json;

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return s;
}

// Problems in a file are collected per entry; lenient parsing warns and
// skips, strict parsing throws the first.
struct Problems {
  std::string source;
  bool strict;
  void report(const std::string& where, const std::string& what) const {
    const std::string msg = source + (where.empty() ? "" : ": " + where) + ": " + what;
    if (strict) throw Error(Status::InvalidArgument, msg);
    log_warn("tuning database: " + msg + " (skipped)");
  }
};

// Database files are four levels deep; 64 is generous. Checked by a scan
// before parsing: a document nested 100,000 deep would otherwise exhaust the
// stack in the JSON library (its DOM and destructor recurse per level).
constexpr int kMaxDepth = 64;

void check_depth(const std::string& text) {
  int depth = 0;
  bool in_string = false, escaped = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxDepth)
        throw Error(Status::InvalidArgument, "JSON nested deeper than " + std::to_string(kMaxDepth) +
                                                 " levels (at byte " + std::to_string(i) + ")");
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
}

std::string text_field(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return "";
  if (!it->is_string()) throw Error(Status::InvalidArgument, std::string("\"") + key + "\" must be a string");
  return it->get<std::string>();
}

double number_field(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return 0;
  if (!it->is_number() || it->get<double>() < 0)
    throw Error(Status::InvalidArgument, std::string("\"") + key + "\" must be a non-negative number");
  return it->get<double>();
}

DbEntry parse_entry(const json& j, const DbEntry& device) {
  if (!j.is_object()) throw Error(Status::InvalidArgument, "an entry must be an object");
  DbEntry e = device;
  e.family = text_field(j, "family");
  e.dtype = text_field(j, "dtype");
  e.bucket = text_field(j, "bucket");
  if (e.family.empty() || e.dtype.empty() || e.bucket.empty())
    throw Error(Status::InvalidArgument, "\"family\", \"dtype\" and \"bucket\" are required");
  parse_dtype(e.dtype);  // throws InvalidType for an unknown type
  auto p = j.find("params");
  if (p == j.end() || !p->is_object()) throw Error(Status::InvalidArgument, "\"params\" must be an object");
  e.params = params_from_json(p->dump());
  e.time_ns = number_field(j, "time_ns");
  e.default_time_ns = number_field(j, "default_time_ns");
  return e;
}

DbEntry parse_device(const json& root) {
  const std::string level = root.contains("level") ? text_field(root, "level") : "device";
  auto d = root.find("device");
  if (d == root.end() || !d->is_object()) throw Error(Status::InvalidArgument, "\"device\" must be an object");
  DbEntry e;
  e.backend = text_field(*d, "backend");
  e.vendor = text_field(*d, "vendor");
  e.name = text_field(*d, "name");
  e.architecture = text_field(*d, "architecture");
  e.driver = text_field(*d, "driver");
  if (e.backend != "opencl" && e.backend != "cuda")
    throw Error(Status::InvalidArgument, "device.backend must be \"opencl\" or \"cuda\"");
  if (level == "device") {
    if (e.name.empty() || e.vendor.empty())
      throw Error(Status::InvalidArgument, "a device-level file needs device.vendor and device.name");
    e.identity = identity_of(e.backend, e.vendor, e.name, e.architecture, e.driver);
  } else if (level == "architecture") {
    if (e.architecture.empty()) throw Error(Status::InvalidArgument, "an architecture-level file needs device.architecture");
    e.name.clear(), e.driver.clear();
  } else if (level == "vendor") {
    if (e.vendor.empty()) throw Error(Status::InvalidArgument, "a vendor-level file needs device.vendor");
    e.name.clear(), e.driver.clear(), e.architecture.clear();
  } else {
    throw Error(Status::InvalidArgument, "\"level\" must be \"device\", \"architecture\" or \"vendor\"");
  }
  return e;
}

std::string slug(const std::string& s) {
  std::string out;
  for (unsigned char c : lower(s)) {
    if (std::isalnum(c)) out += char(c);
    else if (!out.empty() && out.back() != '-') out += '-';
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out.empty() ? "device" : out;
}

}  // namespace

std::string vendor_key(const std::string& vendor) {
  const std::string v = lower(vendor);
  for (const char* known : {"nvidia", "intel", "qualcomm", "apple", "imagination", "samsung", "pocl"})
    if (v.find(known) != std::string::npos) return known;
  // CPUs report their CPUID vendor ("AuthenticAMD", "GenuineIntel").
  if (v.find("advanced micro devices") != std::string::npos || v.rfind("amd", 0) == 0 || v == "authenticamd")
    return "amd";
  if (v == "arm" || v.rfind("arm ", 0) == 0 || v.rfind("arm,", 0) == 0) return "arm";
  if (v.find("portable computing language") != std::string::npos) return "pocl";
  std::string first;
  for (unsigned char c : v) {
    if (!std::isalnum(c)) {
      if (!first.empty()) break;
      continue;
    }
    first += char(c);
  }
  return first;
}

std::string identity_of(const std::string& backend, const std::string& vendor, const std::string& name,
                        const std::string& architecture, const std::string& driver) {
  Capabilities c;
  c.backend = backend == "cuda" ? Backend::CUDA : Backend::OpenCL;
  c.vendor = vendor;
  c.name = name;
  c.architecture = architecture;
  c.driver_version = driver;
  return c.identity();
}

std::vector<DbEntry> parse_database_json(const std::string& text, const std::string& source, bool strict) {
  const Problems problems{source, strict};
  std::vector<DbEntry> out;
  json root;
  DbEntry device;
  try {
    check_depth(text);
    root = json::parse(text);
    if (!root.is_object()) throw Error(Status::InvalidArgument, "the file must hold a JSON object");
    if (root.contains("format") && root["format"] != 1)
      throw Error(Status::InvalidArgument, "unknown \"format\" " + root["format"].dump() + " (this build reads 1)");
    device = parse_device(root);
    if (!root.contains("entries") || !root["entries"].is_array())
      throw Error(Status::InvalidArgument, "\"entries\" must be an array");
  } catch (const std::exception& e) {
    problems.report("", e.what());
    return out;
  }
  device.source = source;
  const json& entries = root["entries"];
  for (std::size_t i = 0; i < entries.size(); ++i) {
    try {
      out.push_back(parse_entry(entries[i], device));
    } catch (const std::exception& e) {
      problems.report("entries[" + std::to_string(i) + "]", e.what());
    }
  }
  return out;
}

std::string database_json(const Capabilities& caps, const std::vector<DbEntry>& entries, const std::string& tuned) {
  // Ordered: a file people read and diff puts the device before the entries.
  nlohmann::ordered_json root{{"format", 1},
            {"level", "device"},
            {"device",
             {{"backend", std::string(backend_name(caps.backend))},
              {"vendor", caps.vendor},
              {"name", caps.name},
              {"architecture", caps.architecture},
              {"driver", caps.driver_version}}}};
  if (!tuned.empty()) root["tuned"] = nlohmann::ordered_json::parse(tuned);
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  std::vector<DbEntry> sorted = entries;
  std::sort(sorted.begin(), sorted.end(), [](const DbEntry& a, const DbEntry& b) {
    return std::tie(a.family, a.dtype, a.bucket) < std::tie(b.family, b.dtype, b.bucket);
  });
  for (const DbEntry& e : sorted) {
    nlohmann::ordered_json params = nlohmann::ordered_json::object();
    for (const auto& [k, v] : e.params) params[k] = v;
    // A tenth of a nanosecond is far below timing noise; more digits only clutter diffs.
    auto ns = [](double t) { return std::round(t * 10) / 10; };
    list.push_back({{"family", e.family},
                    {"dtype", e.dtype},
                    {"bucket", e.bucket},
                    {"params", params},
                    {"time_ns", ns(e.time_ns)},
                    {"default_time_ns", ns(e.default_time_ns)}});
  }
  root["entries"] = list;
  return root.dump(2) + "\n";
}

TuningRecord to_record(const DbEntry& e) {
  TuningRecord r;
  r.backend = e.backend;
  r.device = e.name.empty() ? "" : (e.identity.empty() ? identity_of(e.backend, e.vendor, e.name, e.architecture, e.driver)
                                                       : e.identity);
  r.architecture = e.architecture;
  r.vendor = e.vendor;
  r.family = e.family;
  r.dtype = e.dtype;
  r.bucket = e.bucket;
  r.params_json = params_to_json(e.params);
  r.time_ns = e.time_ns;
  r.default_time_ns = e.default_time_ns;
  r.created = std::int64_t(std::time(nullptr));
  return r;
}

DbEntry from_record(const TuningRecord& r) {
  DbEntry e;
  e.backend = r.backend;
  e.vendor = r.vendor;
  e.architecture = r.architecture;
  e.identity = r.device;
  // The identity is "backend|vendor|name|architecture|driver"; its name and
  // driver fields place the record at device level. An identity that does not
  // split that way still matches exactly (local level) by the whole text.
  if (!r.device.empty()) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (std::size_t bar; (bar = r.device.find('|', start)) != std::string::npos; start = bar + 1)
      parts.push_back(r.device.substr(start, bar - start));
    parts.push_back(r.device.substr(start));
    if (parts.size() == 5) e.name = parts[2], e.driver = parts[4];
    else e.name = r.device;
  }
  e.family = r.family;
  e.dtype = r.dtype;
  e.bucket = r.bucket;
  e.params = params_from_json(r.params_json);
  e.time_ns = r.time_ns;
  e.default_time_ns = r.default_time_ns;
  e.local = true;
  e.source = "cache file";
  return e;
}

std::string database_path_for(const Capabilities& caps) {
  return std::string(backend_name(caps.backend)) + "/" + vendor_key(caps.vendor) + "/" + slug(caps.name) + ".json";
}

}  // namespace optune::detail
