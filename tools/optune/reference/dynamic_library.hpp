// dlopen for the reference libraries: the first candidate that loads, the
// file it resolved to, and typed symbol look-up. Libraries stay loaded until
// the process ends (CLBlast and cuBLAS keep caches that outlive any handle).
#pragma once

#include <string>
#include <vector>

namespace optune::tool {

class DynamicLibrary {
 public:
  // Tries each name in order (a bare soname searches LD_LIBRARY_PATH and the
  // system folders); on failure reason lists every attempt.
  static DynamicLibrary open_first(const std::vector<std::string>& names, std::string* reason);

  bool loaded() const { return handle_ != nullptr; }
  // The file behind the handle, links resolved: /usr/lib/.../libclblast.so.1.5.3.
  const std::string& path() const { return path_; }
  // What follows ".so." in path(): "1.5.3"; "" when the name carries none.
  std::string version_from_path() const;

  // nullptr when the symbol is missing.
  void* raw_symbol(const char* name) const;
  template <class F>
  bool symbol(const char* name, F*& out, std::string* missing) const {
    out = reinterpret_cast<F*>(raw_symbol(name));
    if (!out && missing) *missing += std::string(missing->empty() ? "" : ", ") + name;
    return out != nullptr;
  }

 private:
  void* handle_ = nullptr;
  std::string path_;
};

}  // namespace optune::tool
