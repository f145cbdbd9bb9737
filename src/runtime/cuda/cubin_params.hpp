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

}  // namespace optune::detail
