// FNV-1a 64 (the program cache's key digest and the checksum that frames
// each cached program binary) and the frame itself.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
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

// 128 bits as 32 hex digits, from two differently seeded FNV-1a passes over
// the parts (each followed by a separator): the program cache's key and the
// embedded cubins' digest of a program text. Collisions would load a wrong
// binary, so one 64-bit hash is not enough for a long-lived cache.
std::string digest128(std::initializer_list<std::string_view> parts);

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
