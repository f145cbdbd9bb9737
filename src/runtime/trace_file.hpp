// Where OPTUNE_TRACE may write: a regular file (replaced whole, through a
// temporary file beside it and a rename) or a path that does not exist yet.
// Anything else -- a device node, a FIFO, a directory, a socket, or a
// symbolic link to one -- is refused: renaming over it would replace it.
#pragma once

#include <string>

namespace optune::detail::trace {

// "" when path may be written; otherwise why not ("is a FIFO", ...).
std::string unwritable_reason(const std::string& path);

// Writes text to path as above; false (with one warning) when it cannot.
bool write_file(const std::string& path, const std::string& text);

}  // namespace optune::detail::trace
