#include "runtime/embedded.hpp"

#include <string>

#include "optune/error.hpp"

namespace optune::detail {

std::string_view kernel_source(std::string_view path) {
  for (const EmbeddedFile* f = embedded_kernel_files(); f->path; ++f)
    if (path == f->path) return std::string_view(f->data, f->size);
  throw Error(Status::NotFound, "no embedded kernel source '" + std::string(path) + "'");
}

std::vector<std::string_view> kernel_source_names() {
  std::vector<std::string_view> names;
  for (const EmbeddedFile* f = embedded_kernel_files(); f->path; ++f) names.emplace_back(f->path);
  return names;
}

}  // namespace optune::detail
