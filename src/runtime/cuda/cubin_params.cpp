#include "runtime/cuda/cubin_params.hpp"

#include <cstring>

namespace optune::detail {

namespace {

// Little-endian reads with bounds; false when out of range.
template <class T>
bool read(const std::vector<std::uint8_t>& b, std::uint64_t at, T& out) {
  if (at > b.size() || b.size() - at < sizeof(T)) return false;
  std::memcpy(&out, b.data() + at, sizeof(T));
  return true;
}

constexpr std::uint8_t kFormatSval = 0x04;   // EIFMT_SVAL: a 16-bit size, then that many bytes
constexpr std::uint8_t kKparamInfo = 0x17;   // EIATTR_KPARAM_INFO: one per parameter

}  // namespace

std::optional<std::size_t> cubin_param_count(const std::vector<std::uint8_t>& b, const std::string& kernel) {
  // ELF64, little-endian.
  if (b.size() < 64 || std::memcmp(b.data(), "\x7f" "ELF", 4) != 0 || b[4] != 2 || b[5] != 1) return std::nullopt;
  std::uint64_t shoff = 0;
  std::uint16_t shentsize = 0, shnum = 0, shstrndx = 0;
  if (!read(b, 0x28, shoff) || !read(b, 0x3a, shentsize) || !read(b, 0x3c, shnum) || !read(b, 0x3e, shstrndx) ||
      shentsize < 64 || shstrndx >= shnum)
    return std::nullopt;
  const auto section = [&](std::uint16_t i, std::uint32_t& name, std::uint64_t& off, std::uint64_t& size) {
    const std::uint64_t at = shoff + std::uint64_t(i) * shentsize;
    return read(b, at, name) && read(b, at + 0x18, off) && read(b, at + 0x20, size) && off <= b.size() &&
           size <= b.size() - off;
  };
  std::uint32_t unused = 0;
  std::uint64_t str_off = 0, str_size = 0;
  if (!section(shstrndx, unused, str_off, str_size)) return std::nullopt;
  const std::string want = ".nv.info." + kernel;
  for (std::uint16_t i = 0; i < shnum; ++i) {
    std::uint32_t name = 0;
    std::uint64_t off = 0, size = 0;
    if (!section(i, name, off, size) || name >= str_size) continue;
    const char* s = reinterpret_cast<const char*>(b.data() + str_off + name);
    const std::size_t max = std::size_t(str_size - name);
    if (strnlen(s, max) != want.size() || want.compare(0, want.size(), s, want.size()) != 0) continue;
    // Attributes: format (1 byte), attribute (1), then a 16-bit value, or
    // for EIFMT_SVAL a 16-bit size and that many bytes.
    std::size_t count = 0;
    for (std::uint64_t at = off; at + 4 <= off + size;) {
      const std::uint8_t format = b[at], attribute = b[at + 1];
      std::uint16_t value = 0;
      read(b, at + 2, value);
      at += 4;
      if (format == kFormatSval) {
        if (value > off + size - at) return std::nullopt;
        if (attribute == kKparamInfo) ++count;
        at += value;
      }
    }
    return count;
  }
  return std::nullopt;
}

}  // namespace optune::detail
