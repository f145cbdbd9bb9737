#include "runtime/checksum.hpp"

#include <cstdio>
#include <cstring>

namespace optune::detail {

namespace {

constexpr char kMagic[4] = {'O', 'P', 'T', 'B'};
constexpr std::uint32_t kFrameFormat = 1;
constexpr std::size_t kHeader = 4 + 4 + 8 + 8;

void put_le(std::uint8_t* p, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) p[i] = std::uint8_t(v >> (8 * i));
}
std::uint64_t get_le(const std::uint8_t* p, int bytes) {
  std::uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= std::uint64_t(p[i]) << (8 * i);
  return v;
}

}  // namespace

std::string digest128(std::initializer_list<std::string_view> parts) {
  std::uint64_t h1 = kFnvOffset, h2 = 0x84222325cbf29ce4ull;
  for (std::string_view part : parts) {
    h1 = fnv1a(part, h1);
    h1 = fnv1a("\x1f", h1);
    h2 = fnv1a(part, h2 ^ 0x9e3779b97f4a7c15ull);
    h2 = fnv1a("\x1e", h2);
  }
  char buf[40];
  std::snprintf(buf, sizeof buf, "%016llx%016llx", (unsigned long long)h1, (unsigned long long)h2);
  return buf;
}

std::vector<std::uint8_t> frame_binary(const std::vector<std::uint8_t>& payload) {
  std::vector<std::uint8_t> out(kHeader + payload.size());
  std::memcpy(out.data(), kMagic, 4);
  put_le(out.data() + 4, kFrameFormat, 4);
  put_le(out.data() + 8, payload.size(), 8);
  put_le(out.data() + 16, fnv1a(payload.data(), payload.size()), 8);
  if (!payload.empty()) std::memcpy(out.data() + kHeader, payload.data(), payload.size());
  return out;
}

bool unframe_binary(const std::uint8_t* data, std::size_t size, std::vector<std::uint8_t>* payload,
                    std::string* why) {
  if (size < kHeader || std::memcmp(data, kMagic, 4) != 0) {
    *why = "no frame (written by an older optune, or not a program binary)";
    return false;
  }
  if (const std::uint64_t f = get_le(data + 4, 4); f != kFrameFormat) {
    *why = "frame format " + std::to_string(f) + ", this build reads " + std::to_string(kFrameFormat);
    return false;
  }
  const std::uint64_t length = get_le(data + 8, 8);
  if (length != size - kHeader) {
    *why = "holds " + std::to_string(size - kHeader) + " bytes but was stored with " + std::to_string(length);
    return false;
  }
  if (fnv1a(data + kHeader, size - kHeader) != get_le(data + 16, 8)) {
    *why = "checksum mismatch";
    return false;
  }
  payload->assign(data + kHeader, data + size);
  return true;
}

}  // namespace optune::detail
