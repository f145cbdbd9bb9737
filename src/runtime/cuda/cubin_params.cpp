#include "runtime/cuda/cubin_params.hpp"

#include <cctype>
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

bool is_elf64(const std::vector<std::uint8_t>& b) {
  return b.size() >= 64 && std::memcmp(b.data(), "\x7f" "ELF", 4) == 0 && b[4] == 2 && b[5] == 1;
}

// Calls f(name, offset, size) for each section of an ELF64 file until it
// returns true; false when the file cannot be read.
template <class F>
bool each_section(const std::vector<std::uint8_t>& b, F&& f) {
  if (!is_elf64(b)) return false;
  std::uint64_t shoff = 0;
  std::uint16_t shentsize = 0, shnum = 0, shstrndx = 0;
  if (!read(b, 0x28, shoff) || !read(b, 0x3a, shentsize) || !read(b, 0x3c, shnum) || !read(b, 0x3e, shstrndx) ||
      shentsize < 64 || shstrndx >= shnum)
    return false;
  const auto section = [&](std::uint16_t i, std::uint32_t& name, std::uint64_t& off, std::uint64_t& size) {
    const std::uint64_t at = shoff + std::uint64_t(i) * shentsize;
    return read(b, at, name) && read(b, at + 0x18, off) && read(b, at + 0x20, size) && off <= b.size() &&
           size <= b.size() - off;
  };
  std::uint32_t unused = 0;
  std::uint64_t str_off = 0, str_size = 0;
  if (!section(shstrndx, unused, str_off, str_size)) return false;
  for (std::uint16_t i = 0; i < shnum; ++i) {
    std::uint32_t name = 0;
    std::uint64_t off = 0, size = 0;
    if (!section(i, name, off, size) || name >= str_size) continue;
    const char* s = reinterpret_cast<const char*>(b.data() + str_off + name);
    if (f(std::string(s, strnlen(s, std::size_t(str_size - name))), off, size)) return true;
  }
  return true;
}

}  // namespace

std::optional<bool> module_has_kernel(const std::vector<std::uint8_t>& b, const std::string& kernel) {
  if (is_elf64(b)) {
    bool found = false;
    if (!each_section(b, [&](const std::string& name, std::uint64_t, std::uint64_t) {
          return found = name == ".text." + kernel;
        }))
      return std::nullopt;
    return found;
  }
  if (!looks_like_module(b)) return std::nullopt;
  const std::string text(reinterpret_cast<const char*>(b.data()));
  for (std::size_t at = text.find(".entry"); at != std::string::npos; at = text.find(".entry", at + 6)) {
    std::size_t i = at + 6;
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
    if (text.compare(i, kernel.size(), kernel) == 0 &&
        (i + kernel.size() == text.size() || !(std::isalnum(static_cast<unsigned char>(text[i + kernel.size()])) ||
                                               text[i + kernel.size()] == '_')))
      return true;
  }
  return false;
}

bool looks_like_module(const std::vector<std::uint8_t>& b) {
  if (is_elf64(b)) return true;
  // PTX: text with a NUL at the end and a .version directive.
  if (b.empty() || b.back() != 0) return false;
  return std::string(reinterpret_cast<const char*>(b.data())).find(".version") != std::string::npos;
}

std::optional<std::size_t> cubin_param_count(const std::vector<std::uint8_t>& b, const std::string& kernel) {
  if (!is_elf64(b)) return std::nullopt;
  const std::string want = ".nv.info." + kernel;
  std::optional<std::size_t> result;
  bool bad = false;
  each_section(b, [&](const std::string& name, std::uint64_t off, std::uint64_t size) {
    if (name != want) return false;
    // Attributes: format (1 byte), attribute (1), then a 16-bit value, or
    // for EIFMT_SVAL a 16-bit size and that many bytes.
    std::size_t count = 0;
    for (std::uint64_t at = off; at + 4 <= off + size;) {
      const std::uint8_t format = b[at], attribute = b[at + 1];
      std::uint16_t value = 0;
      read(b, at + 2, value);
      at += 4;
      if (format == kFormatSval) {
        if (value > off + size - at) {
          bad = true;
          return true;
        }
        if (attribute == kKparamInfo) ++count;
        at += value;
      }
    }
    result = count;
    return true;
  });
  if (bad) return std::nullopt;
  return result;
}

}  // namespace optune::detail