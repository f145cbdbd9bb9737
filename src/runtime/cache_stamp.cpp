// The cache file's integrity stamp (runtime/cache_stamp.hpp).
#include "runtime/cache_stamp.hpp"

#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace optune::detail {

namespace fs = std::filesystem;

std::string file_stamp(const std::string& path) {
  std::string stamp;
  for (const std::string& p : {path, path + "-wal"}) {
    std::error_code ec;
    const auto size = fs::file_size(p, ec);
    const auto time = ec ? fs::file_time_type{} : fs::last_write_time(p, ec);
    stamp += std::to_string(ec ? 0 : size) + " " +
             std::to_string(ec ? 0 : std::int64_t(time.time_since_epoch().count())) + "\n";
  }
  return stamp;
}

std::string stamp_path(const std::string& path) { return path + ".checked"; }

bool stamp_matches(const std::string& path, const std::string& stamp) {
  std::ifstream in(stamp_path(path), std::ios::binary);
  if (!in) return false;
  const std::string kept((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return kept == stamp;
}

void write_stamp(const std::string& path, const std::string& stamp) {
  const std::string tmp = stamp_path(path) + "." + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << stamp;
    if (!out) return;  // a read-only folder: every open checks, as before
  }
  std::error_code ec;
  fs::rename(tmp, stamp_path(path), ec);
  if (ec) fs::remove(tmp, ec);
}

}  // namespace optune::detail
