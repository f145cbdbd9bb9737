// The cache file's integrity stamp (PATH.checked), kept beside the file.
//
// The file's integrity check reads every page (about 0.5 ms per MB: 10 ms
// for a cache that `optune warm` filled), which a process's first call
// would pay at every start. So a passing check leaves a stamp beside the
// file (PATH.checked: size and modification time of the file and its WAL),
// and an open that finds the same stamp skips the check: the bytes have not
// changed since they passed. Any write, a truncation or a new file changes
// the stamp, and the next open checks again. Damage that keeps size and time
// (a bit flip on disk) still surfaces as an SQLite error at its first read,
// which degrades to "no cache" with a warning, and program binaries carry
// their own checksums (frame_binary).
#pragma once

#include <string>

namespace optune::detail {

// Size and modification time of the file and its WAL, as text.
std::string file_stamp(const std::string& path);
// PATH.checked.
std::string stamp_path(const std::string& path);
// Whether the stamp beside the file is this one.
bool stamp_matches(const std::string& path, const std::string& stamp);
// Leaves the stamp beside the file (atomically; nothing in a read-only folder).
void write_stamp(const std::string& path, const std::string& stamp);

}  // namespace optune::detail
