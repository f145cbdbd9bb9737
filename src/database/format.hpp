// Stored tuning results and their JSON file format (docs/DATABASE.md):
// what database/<backend>/<vendor>/<device>.json hold, what `optune db
// export` writes and `optune db import` reads. One file describes one device
// (or one architecture, or one vendor) and lists its entries:
//
//   {"format": 1, "level": "device",
//    "device": {"backend": "opencl", "vendor": "NVIDIA Corporation",
//               "name": "NVIDIA H100 80GB HBM3", "architecture": "sm_90",
//               "driver": "550.54.15"},
//    "tuned": {"date": "...", "clock_mhz": 1980, "commit": "..."},
//    "entries": [{"family": "copy", "dtype": "f32", "bucket": "n<=2^20",
//                 "params": {"VW": 4, "WGS": 256, "GRID_STRIDE": 0, "WAVES": 4},
//                 "time_ns": 5120.0, "default_time_ns": 6010.5}]}
//
// "level" may be "architecture" (device needs backend and architecture) or
// "vendor" (device needs backend and vendor); "device" is the default and
// needs backend, vendor and name. "tuned" is informative only.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "kernels/descriptor.hpp"
#include "runtime/cache_file.hpp"

namespace optune::detail {

// One stored result: what it was tuned on, its key and its parameters.
// name empty: an architecture-level entry (architecture set) or a
// vendor-level one (only vendor set).
struct DbEntry {
  std::string backend, vendor, name, architecture, driver;
  std::string identity;  // Capabilities::identity() of the device; "" above device level
  std::string family, dtype, bucket;
  Params params;
  double time_ns = 0, default_time_ns = 0;
  bool local = false;    // from the cache file (tuned here or imported)
  std::string source;    // "database/opencl/nvidia/h100.json", "cache file", ...
};

// A stable short vendor name: "nvidia", "amd", "intel", "arm", "qualcomm",
// "apple", "pocl", else the first word of the vendor string, lower-case.
std::string vendor_key(const std::string& vendor);
// The identity a device with these fields has (Capabilities::identity()).
std::string identity_of(const std::string& backend, const std::string& vendor, const std::string& name,
                        const std::string& architecture, const std::string& driver);

// Parses a database file. Lenient (shipped files): a malformed file or entry
// is warned about and skipped. Strict (imports): the first problem throws
// Error(InvalidArgument) naming the source and the entry. A document nested
// deeper than 64 levels is refused before it is parsed.
std::vector<DbEntry> parse_database_json(const std::string& text, const std::string& source, bool strict);

// One file for one device in the format above (entries' own device fields are
// ignored). tuned_json: the "tuned" object as JSON text, or "".
std::string database_json(const Capabilities& caps, const std::vector<DbEntry>& entries,
                          const std::string& tuned_json = "");

TuningRecord to_record(const DbEntry& e);
DbEntry from_record(const TuningRecord& r);

// The suggested place of a device's file: "opencl/nvidia/nvidia-h100-80gb-hbm3.json".
std::string database_path_for(const Capabilities& caps);

}  // namespace optune::detail
