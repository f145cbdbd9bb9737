// The loader of clblast_api.hpp's entry points.
#include "clblast_api.hpp"

#include <cstdlib>
#include <mutex>
#include <vector>

namespace optune::tool::clblast {

const ClblastApi& load() {
  static ClblastApi api;
  static std::once_flag once;
  std::call_once(once, [] {
    std::vector<std::string> names;
    if (const char* env = std::getenv("OPTUNE_CLBLAST_LIBRARY"); env && *env) {
      names.push_back(env);  // a file named by the user, and only that
    } else {
      names = {"libclblast.so.1", "libclblast.so"};
    }
    std::string reason;
    DynamicLibrary lib = DynamicLibrary::open_first(names, &reason);
    if (!lib.loaded()) {
      api.probe.reason = "libclblast.so.1 not found (" + reason + ")";
      return;
    }
    std::string missing;
    lib.symbol("CLBlastSgemm", api.s.gemm, &missing);
    lib.symbol("CLBlastDgemm", api.d.gemm, &missing);
    lib.symbol("CLBlastHgemm", api.h.gemm, &missing);
    lib.symbol("CLBlastSgemmStridedBatched", api.s.strided_batched, &missing);
    lib.symbol("CLBlastDgemmStridedBatched", api.d.strided_batched, &missing);
    lib.symbol("CLBlastHgemmStridedBatched", api.h.strided_batched, &missing);
    lib.symbol("CLBlastCgemm", api.c.gemm, &missing);
    lib.symbol("CLBlastCgemmStridedBatched", api.c.strided_batched, &missing);
    lib.symbol("CLBlastSsymm", api.ssymm, &missing);
    lib.symbol("CLBlastSaxpy", api.s1.axpy, &missing);
    lib.symbol("CLBlastDaxpy", api.d1.axpy, &missing);
    lib.symbol("CLBlastCaxpy", api.c1.axpy, &missing);
    lib.symbol("CLBlastSdot", api.s1.dot, &missing);
    lib.symbol("CLBlastDdot", api.d1.dot, &missing);
    lib.symbol("CLBlastCdotc", api.c1.dot, &missing);
    lib.symbol("CLBlastSnrm2", api.s1.nrm2, &missing);
    lib.symbol("CLBlastDnrm2", api.d1.nrm2, &missing);
    lib.symbol("CLBlastScnrm2", api.c1.nrm2, &missing);
    lib.symbol("CLBlastStrmv", api.s1.trmv, nullptr);
    lib.symbol("CLBlastDtrmv", api.d1.trmv, nullptr);
    lib.symbol("CLBlastCtrmv", api.c1.trmv, nullptr);
    lib.symbol("CLBlastStrsv", api.s1.trsv, nullptr);
    lib.symbol("CLBlastDtrsv", api.d1.trsv, nullptr);
    lib.symbol("CLBlastCtrsv", api.c1.trsv, nullptr);
    lib.symbol("CLBlastSsyrk", api.s3.syrk, nullptr);
    lib.symbol("CLBlastSsyr2k", api.s3.syr2k, nullptr);
    lib.symbol("CLBlastStrmm", api.s3.trmm, nullptr);
    lib.symbol("CLBlastStrsm", api.s3.trsm, nullptr);
    lib.symbol("CLBlastDsyrk", api.d3.syrk, nullptr);
    lib.symbol("CLBlastDsyr2k", api.d3.syr2k, nullptr);
    lib.symbol("CLBlastDtrmm", api.d3.trmm, nullptr);
    lib.symbol("CLBlastDtrsm", api.d3.trsm, nullptr);
    lib.symbol("CLBlastCsyrk", api.c3.syrk, nullptr);
    lib.symbol("CLBlastCsyr2k", api.c3.syr2k, nullptr);
    lib.symbol("CLBlastCtrmm", api.c3.trmm, nullptr);
    lib.symbol("CLBlastCtrsm", api.c3.trsm, nullptr);
    lib.symbol("CLBlastCherk", api.c3.herk, nullptr);
    lib.symbol("CLBlastCher2k", api.c3.her2k, nullptr);
    lib.symbol("CLBlastSgemv", api.s2.gemv, nullptr);
    lib.symbol("CLBlastDgemv", api.d2.gemv, nullptr);
    lib.symbol("CLBlastCgemv", api.c2.gemv, nullptr);
    lib.symbol("CLBlastZgemv", api.z2.gemv, nullptr);
    lib.symbol("CLBlastSger", api.s2.ger, nullptr);
    lib.symbol("CLBlastDger", api.d2.ger, nullptr);
    lib.symbol("CLBlastCgeru", api.c2.ger, nullptr);
    lib.symbol("CLBlastZgeru", api.z2.ger, nullptr);
    lib.symbol("CLBlastSsymv", api.s2.symv, nullptr);
    lib.symbol("CLBlastDsymv", api.d2.symv, nullptr);
    lib.symbol("CLBlastChemv", api.c2.symv, nullptr);
    lib.symbol("CLBlastZhemv", api.z2.symv, nullptr);
    lib.symbol("CLBlastSim2col", api.sx.im2col, nullptr);
    lib.symbol("CLBlastDim2col", api.dx.im2col, nullptr);
    lib.symbol("CLBlastCim2col", api.cx.im2col, nullptr);
    lib.symbol("CLBlastScol2im", api.sx.col2im, nullptr);
    lib.symbol("CLBlastDcol2im", api.dx.col2im, nullptr);
    lib.symbol("CLBlastCcol2im", api.cx.col2im, nullptr);
    api.probe.path = lib.path();
    api.probe.version = lib.version_from_path();
    api.lib = lib;
    if (!missing.empty()) {
      api.probe.reason = lib.path() + " lacks " + missing + " (CLBlast older than 1.5?)";
      return;
    }
    api.probe.loaded = true;
  });
  return api;
}

std::string status_text(int s) {
  switch (s) {
    case -4: return "CLBlastTempBufferAllocFailure";
    case -5: return "CLBlastOpenCLOutOfResources";
    case -11: return "CLBlastOpenCLBuildProgramFailure";
    case -36: return "CLBlastInvalidCommandQueue";
    case -38: return "CLBlastInvalidMemObject";
    case -54: return "CLBlastInvalidLocalThreadsTotal";
    case -1024: return "CLBlastNotImplemented";
    case -1017: return "CLBlastInvalidDimension";
    case -1016: return "CLBlastInvalidLeadDimA";
    case -1015: return "CLBlastInvalidLeadDimB";
    case -1014: return "CLBlastInvalidLeadDimC";
    case -1011: return "CLBlastInsufficientMemoryA";
    case -1010: return "CLBlastInsufficientMemoryB";
    case -1009: return "CLBlastInsufficientMemoryC";
    case -2049: return "CLBlastInvalidBatchCount";
    case -2046: return "CLBlastInvalidLocalMemUsage";
    case -2045: return "CLBlastNoHalfPrecision";
    case -2044: return "CLBlastNoDoublePrecision";
    case -2041: return "CLBlastDatabaseError";
    default: return "status " + std::to_string(s);
  }
}

}  // namespace optune::tool::clblast
