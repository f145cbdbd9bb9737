#include "runtime/trace_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "runtime/log.hpp"

namespace optune::detail::trace {

namespace {

namespace fs = std::filesystem;

const char* kind_of(mode_t m) {
  if (S_ISDIR(m)) return "a directory";
  if (S_ISCHR(m)) return "a character device";
  if (S_ISBLK(m)) return "a block device";
  if (S_ISFIFO(m)) return "a FIFO";
  if (S_ISSOCK(m)) return "a socket";
  return "not a regular file";
}

// The file a write to path lands in: path itself, or the end of its chain
// of symbolic links (renaming over the link would replace the link).
std::string target_of(const std::string& path) {
  struct stat st {};
  if (lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return path;
  std::error_code ec;
  const fs::path t = fs::weakly_canonical(path, ec);
  return ec ? path : t.string();
}

}  // namespace

std::string unwritable_reason(const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return "";  // a new file
    return std::string("cannot be examined (") + std::strerror(errno) + ")";
  }
  if (S_ISREG(st.st_mode)) return "";
  return std::string("is ") + kind_of(st.st_mode) + ", not a regular file; only a regular file or a new path is written";
}

bool write_file(const std::string& path, const std::string& text) {
  const std::string target = target_of(path);
  if (const std::string why = unwritable_reason(target); !why.empty()) {
    log_warn("OPTUNE_TRACE: " + path + " " + why + "; no trace written");
    return false;
  }
  const std::string tmp = target + ".tmp" + std::to_string(getpid());
  // O_EXCL | O_NOFOLLOW: never write through something already lying there.
  std::remove(tmp.c_str());
  const int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  FILE* f = fd < 0 ? nullptr : fdopen(fd, "wb");
  if (!f) {
    if (fd >= 0) close(fd);
    log_warn("OPTUNE_TRACE: cannot write " + tmp + " (" + std::strerror(errno) + ")");
    return false;
  }
  const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  if (std::fclose(f) != 0 || !ok || std::rename(tmp.c_str(), target.c_str()) != 0) {
    std::remove(tmp.c_str());
    log_warn("OPTUNE_TRACE: cannot write " + path);
    return false;
  }
  return true;
}

}  // namespace optune::detail::trace
