// Files embedded in the library at build time (cmake/embed_files.cmake):
// kernel sources under src/kernels and the shipped database under database/.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace optune::detail {

struct EmbeddedFile {
  const char* path;  // relative to its root, e.g. "copy/copy.cl"
  const char* data;
  std::size_t size;
};

// Each table ends with an entry whose path is nullptr.
const EmbeddedFile* embedded_kernel_files();
const EmbeddedFile* embedded_database_files();

// The text of an embedded kernel source; throws Error(NotFound) naming it.
std::string_view kernel_source(std::string_view path);
std::vector<std::string_view> kernel_source_names();

}  // namespace optune::detail
