// optune bench blas --host-interface: the time per call of SGEMM, DGEMM
// (n x n x n), SGEMV (n x n) and SAXPY (n^2 elements), n from 16 to 4096,
// through the Fortran symbols of liboptune_blas.so.3 (host operands, copies
// included), against the other BLAS libraries on the machine in the same
// run: Debian's reference BLAS and OpenBLAS where installed, and any given
// with --host-blas NAME=PATH. Each library is dlopen'ed on its own
// (RTLD_LOCAL). optune runs with its thresholds (optune), with every call in
// the caller's thread (optune-thread), with every call on the device small
// calls take (optune-cpu) and, where small calls have a device of their own
// (a GPU default device), with every call on the default device
// (optune-gpu). The crossovers (in-thread against optune-cpu; optune-cpu
// against optune-gpu) are printed: the measured thresholds per class,
// written with --host-db FILE as host_blas entries of the default device in
// the database's format (kernels/blas/host_blas.hpp; `optune db import FILE`,
// or ship it under database/).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace optune::tool {

struct HostBlasBenchOptions {
  std::string device;                 // OPTUNE_DEVICE for the library ("" keeps the environment's)
  std::string library;                // liboptune_blas.so.3 ("": beside the tool, else by name)
  std::vector<std::string> others;    // NAME=PATH
  int max_n = 4096;
  std::string db_file;                // the crossovers as host_blas entries of the default device
  bool quiet = false;
};

nlohmann::json bench_host_blas(const HostBlasBenchOptions& o);

}  // namespace optune::tool
