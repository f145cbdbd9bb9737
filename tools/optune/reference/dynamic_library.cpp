#include "dynamic_library.hpp"

#include <dlfcn.h>
#include <link.h>

#include <climits>
#include <cstdlib>

namespace optune::tool {

DynamicLibrary DynamicLibrary::open_first(const std::vector<std::string>& names, std::string* reason) {
  DynamicLibrary lib;
  std::string tried;
  for (const std::string& name : names) {
    if (name.empty()) continue;
    void* h = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) {
      const char* e = dlerror();
      tried += (tried.empty() ? "" : "; ") + (e ? std::string(e) : name + ": not found");
      continue;
    }
    lib.handle_ = h;
    lib.path_ = name;
    link_map* map = nullptr;
    if (dlinfo(h, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name && *map->l_name) lib.path_ = map->l_name;
    char resolved[PATH_MAX];
    if (realpath(lib.path_.c_str(), resolved)) lib.path_ = resolved;
    return lib;
  }
  if (reason) *reason = tried.empty() ? "no candidate names" : tried;
  return lib;
}

std::string DynamicLibrary::version_from_path() const {
  const auto at = path_.rfind(".so.");
  return at == std::string::npos ? std::string() : path_.substr(at + 4);
}

void* DynamicLibrary::raw_symbol(const char* name) const { return handle_ ? dlsym(handle_, name) : nullptr; }

}  // namespace optune::tool
