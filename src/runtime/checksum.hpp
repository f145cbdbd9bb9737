// FNV-1a 64 (the program cache's key digest and the checksum that frames
// each cached program binary) and the frame itself.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace optune::detail {

constexpr std::uint64_t kFnvOffset = 0xcbf29ce484222325ull;

inline std::uint64_t fnv1a(const std::uint8_t* p, std::size_t n, std::uint64_t h = kFnvOffset) {
  for (std::size_t i = 0; i < n; ++i) {
    h ^= p[i];
    h *= 0x100000001b3ull;
  }
  return h;
}
inline std::uint64_t fnv1a(std::string_view s, std::uint64_t h = kFnvOffset) {
  return fnv1a(reinterpret_cast<const std::uint8_t*>(s.data()), s.size(), h);
}

// A cached program binary as stored: magic "OPTB", format 1 (4 bytes), the
// payload's length and its FNV-1a 64 (8 bytes each, little-endian), then the
// payload. A truncated, extended or altered blob -- or one written before
// binaries were framed -- fails unframe_binary and never reaches a driver.
std::vector<std::uint8_t> frame_binary(const std::vector<std::uint8_t>& payload);
// True with *payload set when the frame is whole; false with *why saying
// what is wrong otherwise.
bool unframe_binary(const std::uint8_t* data, std::size_t size, std::vector<std::uint8_t>* payload,
                    std::string* why);

}  // namespace optune::detail
