#include "runtime/embedded_cubins.hpp"

#include <cstring>
#include <mutex>

#include "runtime/checksum.hpp"
#include "runtime/env.hpp"
#include "runtime/log.hpp"

namespace optune::detail {

namespace {

constexpr char kMagic[8] = {'O', 'P', 'T', 'C', 'U', 'B', 'I', 'X'};
constexpr std::uint32_t kFormat = 1;

void put(std::vector<std::uint8_t>& out, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(std::uint8_t(v >> (8 * i)));
}

// Bounds-checked little-endian reads over the blob.
struct Reader {
  const std::uint8_t* p;
  std::size_t size, at = 0;
  bool get(std::uint64_t& v, int bytes) {
    if (size - at < std::size_t(bytes)) return false;
    v = 0;
    for (int i = 0; i < bytes; ++i) v |= std::uint64_t(p[at + i]) << (8 * i);
    at += std::size_t(bytes);
    return true;
  }
};

}  // namespace

std::string cubin_key(std::string_view arch, std::string_view options, std::string_view text) {
  std::string k(arch);
  k += '\x1f';
  k += options;
  k += '\x1f';
  k += digest128({text});
  return k;
}

std::vector<std::uint8_t> write_cubin_index(const std::vector<CubinEntry>& entries) {
  std::vector<std::uint8_t> head(kMagic, kMagic + 8);
  put(head, kFormat, 4);
  put(head, entries.size(), 4);
  std::size_t head_size = head.size();
  for (const CubinEntry& e : entries) head_size += 4 + e.key.size() + 16;
  std::vector<std::uint8_t> body;
  for (const CubinEntry& e : entries) {
    const std::vector<std::uint8_t> framed = frame_binary(e.cubin);
    put(head, e.key.size(), 4);
    head.insert(head.end(), e.key.begin(), e.key.end());
    put(head, head_size + body.size(), 8);
    put(head, framed.size(), 8);
    body.insert(body.end(), framed.begin(), framed.end());
  }
  head.insert(head.end(), body.begin(), body.end());
  return head;
}

CubinIndex::CubinIndex(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {
  if (size == 0) return;  // nothing embedded
  Reader r{data, size};
  std::uint64_t format = 0, count = 0;
  if (size < 8 || std::memcmp(data, kMagic, 8) != 0) {
    error_ = "not an index of cubins (bad magic)";
    return;
  }
  r.at = 8;
  if (!r.get(format, 4) || !r.get(count, 4)) {
    error_ = "truncated header";
    return;
  }
  if (format != kFormat) {
    error_ = "format " + std::to_string(format) + ", expected " + std::to_string(kFormat);
    return;
  }
  for (std::uint64_t i = 0; i < count; ++i) {
    std::uint64_t len = 0, off = 0, n = 0;
    if (!r.get(len, 4) || size - r.at < len) {
      error_ = "entry " + std::to_string(i) + " is truncated";
      break;
    }
    std::string key(reinterpret_cast<const char*>(data + r.at), std::size_t(len));
    r.at += std::size_t(len);
    if (!r.get(off, 8) || !r.get(n, 8) || off > size || n > size - off) {
      error_ = "entry " + std::to_string(i) + " points outside the blob";
      break;
    }
    if (!at_.emplace(std::move(key), std::make_pair(off, n)).second) {
      error_ = "entry " + std::to_string(i) + " repeats a key";
      break;
    }
  }
  if (!error_.empty()) at_.clear();
}

std::optional<std::vector<std::uint8_t>> CubinIndex::find(const std::string& key, std::string* why) const {
  auto it = at_.find(key);
  if (it == at_.end()) return std::nullopt;
  std::vector<std::uint8_t> cubin;
  std::string bad;
  if (!unframe_binary(data_ + it->second.first, std::size_t(it->second.second), &cubin, &bad)) {
    if (why) *why = bad;
    return std::nullopt;
  }
  return cubin;
}

namespace {

std::mutex index_mu;
std::shared_ptr<const CubinIndex> library_index, test_index;

}  // namespace

std::shared_ptr<const CubinIndex> embedded_cubins() {
  std::lock_guard lock(index_mu);
  if (test_index) return test_index;
  if (!library_index) {
    std::size_t size = 0;
    const std::uint8_t* data = embedded_cubin_blob(&size);
    library_index = std::make_shared<const CubinIndex>(data, size);
    if (!library_index->ok())
      log_warn("embedded cubins: the library's index is damaged (" + library_index->error() +
               "); every program compiles");
  }
  return library_index;
}

void set_embedded_cubins_for_testing(const std::vector<std::uint8_t>* blob) {
  std::lock_guard lock(index_mu);
  test_index = blob ? std::make_shared<const CubinIndex>(blob->data(), blob->size()) : nullptr;
}

bool embedded_cubins_enabled() {
  const std::string v = env_choice("OPTUNE_EMBEDDED_CUBINS", {"on", "off", "1", "0"}, "on");
  return v == "on" || v == "1";
}

std::optional<std::vector<std::uint8_t>> embedded_cubin(std::string_view arch, const std::string& options,
                                                        const std::string& text) {
  if (!embedded_cubins_enabled()) return std::nullopt;
  const std::shared_ptr<const CubinIndex> index = embedded_cubins();
  if (index->size() == 0) return std::nullopt;
  const std::string key = cubin_key(arch, options, text);
  std::string why;
  auto cubin = index->find(key, &why);
  if (!cubin && !why.empty())
    warn_once("embedded-cubin:" + key, "embedded cubins: the entry for a program is damaged (" + why +
                                           "); compiling it instead");
  return cubin;
}

}  // namespace optune::detail
