// Cubins compiled at build time and embedded in the library
// (tools/embed_cubins, CMake option OPTUNE_EMBED_CUBINS): the programs the
// database would have the CUDA back end compile on the devices the build
// knows (cuda_caps.hpp's profiles), compiled by NVRTC. Before NVRTC runs, the
// program path (program.cpp) asks for an exact match: the device's
// architecture, the whole option string and the digest of the whole program
// text. Anything else compiles as before; a damaged entry is never loaded.
// OPTUNE_EMBEDDED_CUBINS=off turns the lookup off.
//
// The blob: magic "OPTCUBIX", format (u32), entry count (u32), then per entry
// the key's length (u32), the key, the offset and size (u64 each) of its
// cubin in the blob, then the cubins, each framed (checksum.hpp: length and
// FNV-1a 64). Integers little-endian.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace optune::detail {

// The key of a program: architecture ("sm_90"), options, 128-bit digest of the text.
std::string cubin_key(std::string_view arch, std::string_view options, std::string_view text);

struct CubinEntry {
  std::string key;
  std::vector<std::uint8_t> cubin;
};
// The blob of these entries (what the generator writes).
std::vector<std::uint8_t> write_cubin_index(const std::vector<CubinEntry>& entries);

class CubinIndex {
 public:
  // Reads the index of a blob (the blob must outlive the index). An index
  // that does not parse is empty, with error() saying why.
  CubinIndex(const std::uint8_t* data, std::size_t size);
  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }
  std::size_t size() const { return at_.size(); }
  // The cubin stored for key with its frame checked; nullopt when there is
  // none, and also, with *why set, when its bytes are damaged.
  std::optional<std::vector<std::uint8_t>> find(const std::string& key, std::string* why) const;

 private:
  const std::uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
  std::map<std::string, std::pair<std::uint64_t, std::uint64_t>, std::less<>> at_;  // offset, size
  std::string error_;
};

// The blob the build embedded; size 0 when none (no toolkit at build time,
// or OPTUNE_EMBED_CUBINS=OFF). Defined in the generated translation unit.
const std::uint8_t* embedded_cubin_blob(std::size_t* size);
// The library's index of that blob, parsed once.
std::shared_ptr<const CubinIndex> embedded_cubins();
// OPTUNE_EMBEDDED_CUBINS: on (default) or off (also 1 / 0), read each time.
bool embedded_cubins_enabled();
// What the program path asks before compiling: the embedded cubin for an
// exact match, nullopt otherwise (and when turned off). A damaged entry is
// warned about once and not returned.
std::optional<std::vector<std::uint8_t>> embedded_cubin(std::string_view arch, const std::string& options,
                                                        const std::string& text);

// Tests: use this blob instead of the library's (the caller keeps it alive);
// nullptr goes back to the library's.
void set_embedded_cubins_for_testing(const std::vector<std::uint8_t>* blob);

}  // namespace optune::detail
