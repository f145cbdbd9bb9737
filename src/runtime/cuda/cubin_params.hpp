// The number of parameters of a kernel, read from its cubin (an ELF file):
// the ".nv.info.<kernel>" section lists one EIATTR_KPARAM_INFO attribute per
// parameter. Used where the driver has no cuFuncGetParamCount, so that a
// launch with too few arguments is refused without asking the driver for a
// parameter that does not exist (each such question is an API error that
// compute-sanitizer reports). Nothing when the binary is not a cubin (PTX)
// or the section cannot be read.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace optune::detail {

std::optional<std::size_t> cubin_param_count(const std::vector<std::uint8_t>& cubin, const std::string& kernel);

// Whether a module binary holds the kernel: a cubin's ".text.<kernel>"
// section, or PTX's ".entry <kernel>"; nothing when the binary is neither
// (the driver then decides). Lets a missing kernel be refused without an
// API call that fails.
std::optional<bool> module_has_kernel(const std::vector<std::uint8_t>& binary, const std::string& kernel);
// Whether the bytes can be a module at all: an ELF file or NUL-terminated PTX
// text. A binary that cannot is refused before the driver sees it.
bool looks_like_module(const std::vector<std::uint8_t>& binary);

}  // namespace optune::detail
