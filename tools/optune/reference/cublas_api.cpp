// The loader of cublas_api.hpp's entry points.
#include "cublas_api.hpp"

#include <cstdlib>
#include <mutex>
#include <vector>

#ifndef OPTUNE_CUBLAS_MAJOR
#define OPTUNE_CUBLAS_MAJOR 13
#endif
#ifndef OPTUNE_REFERENCE_CUDA_LIBRARY_DIR
#define OPTUNE_REFERENCE_CUDA_LIBRARY_DIR "/usr/local/cuda/lib64"
#endif

namespace optune::tool::cublas {

const CublasApi& load() {
  static CublasApi api;
  static std::once_flag once;
  std::call_once(once, [] {
    const std::string so = "libcublas.so." + std::to_string(OPTUNE_CUBLAS_MAJOR);
    std::vector<std::string> names;
    if (const char* env = std::getenv("OPTUNE_CUBLAS_LIBRARY"); env && *env) {
      names.push_back(env);
    } else {
      names = {so, std::string(OPTUNE_REFERENCE_CUDA_LIBRARY_DIR) + "/" + so};
      if (const char* cuda = std::getenv("CUDA_PATH"); cuda && *cuda) names.push_back(std::string(cuda) + "/lib64/" + so);
      names.push_back("/usr/local/cuda/lib64/" + so);
    }
    std::string reason;
    DynamicLibrary lib = DynamicLibrary::open_first(names, &reason);
    if (!lib.loaded()) {
      api.probe.reason = so + " not found (" + reason + ")";
      return;
    }
    std::string missing;
    lib.symbol("cublasCreate_v2", api.create, &missing);
    lib.symbol("cublasDestroy_v2", api.destroy, &missing);
    lib.symbol("cublasSetStream_v2", api.set_stream, &missing);
    lib.symbol("cublasSetMathMode", api.set_math_mode, &missing);
    lib.symbol("cublasGetProperty", api.get_property, &missing);
    lib.symbol("cublasSgemm_v2", api.sgemm, &missing);
    lib.symbol("cublasDgemm_v2", api.dgemm, &missing);
    lib.symbol("cublasSgemmStridedBatched", api.sgemm_strided_batched, &missing);
    lib.symbol("cublasDgemmStridedBatched", api.dgemm_strided_batched, &missing);
    lib.symbol("cublasGemmEx", api.gemm_ex, &missing);
    lib.symbol("cublasGemmStridedBatchedEx", api.gemm_strided_batched_ex, &missing);
    lib.symbol("cublasGetStatusString", api.status_string, nullptr);
    lib.symbol("cublasSetPointerMode_v2", api.set_pointer_mode, &missing);
    lib.symbol("cublasSaxpy_v2", api.saxpy, &missing);
    lib.symbol("cublasDaxpy_v2", api.daxpy, &missing);
    lib.symbol("cublasCaxpy_v2", api.caxpy, &missing);
    lib.symbol("cublasCgemm_v2", api.cgemm, &missing);
    lib.symbol("cublasSsymm_v2", api.ssymm, &missing);
    lib.symbol("cublasSdot_v2", api.sdot, &missing);
    lib.symbol("cublasDdot_v2", api.ddot, &missing);
    lib.symbol("cublasCdotc_v2", api.cdotc, &missing);
    lib.symbol("cublasSnrm2_v2", api.snrm2, &missing);
    lib.symbol("cublasDnrm2_v2", api.dnrm2, &missing);
    lib.symbol("cublasScnrm2_v2", api.scnrm2, &missing);
    lib.symbol("cublasAxpyEx", api.axpy_ex, nullptr);
    lib.symbol("cublasDotEx", api.dot_ex, nullptr);
    lib.symbol("cublasNrm2Ex", api.nrm2_ex, nullptr);
    lib.symbol("cublasStrmv_v2", api.strmv, nullptr);
    lib.symbol("cublasDtrmv_v2", api.dtrmv, nullptr);
    lib.symbol("cublasCtrmv_v2", api.ctrmv, nullptr);
    lib.symbol("cublasStrsv_v2", api.strsv, nullptr);
    lib.symbol("cublasDtrsv_v2", api.dtrsv, nullptr);
    lib.symbol("cublasCtrsv_v2", api.ctrsv, nullptr);
    lib.symbol("cublasSsyrk_v2", api.s3.syrk, nullptr);
    lib.symbol("cublasSsyr2k_v2", api.s3.syr2k, nullptr);
    lib.symbol("cublasStrmm_v2", api.s3.trmm, nullptr);
    lib.symbol("cublasStrsm_v2", api.s3.trsm, nullptr);
    lib.symbol("cublasDsyrk_v2", api.d3.syrk, nullptr);
    lib.symbol("cublasDsyr2k_v2", api.d3.syr2k, nullptr);
    lib.symbol("cublasDtrmm_v2", api.d3.trmm, nullptr);
    lib.symbol("cublasDtrsm_v2", api.d3.trsm, nullptr);
    lib.symbol("cublasCsyrk_v2", api.c3.syrk, nullptr);
    lib.symbol("cublasCsyr2k_v2", api.c3.syr2k, nullptr);
    lib.symbol("cublasCtrmm_v2", api.c3.trmm, nullptr);
    lib.symbol("cublasCtrsm_v2", api.c3.trsm, nullptr);
    lib.symbol("cublasCherk_v2", api.c3.herk, nullptr);
    lib.symbol("cublasCher2k_v2", api.c3.her2k, nullptr);
    lib.symbol("cublasSgemv_v2", api.s2.gemv, nullptr);
    lib.symbol("cublasDgemv_v2", api.d2.gemv, nullptr);
    lib.symbol("cublasCgemv_v2", api.c2.gemv, nullptr);
    lib.symbol("cublasZgemv_v2", api.z2.gemv, nullptr);
    lib.symbol("cublasSger_v2", api.s2.ger, nullptr);
    lib.symbol("cublasDger_v2", api.d2.ger, nullptr);
    lib.symbol("cublasCgeru_v2", api.c2.ger, nullptr);
    lib.symbol("cublasZgeru_v2", api.z2.ger, nullptr);
    lib.symbol("cublasSsymv_v2", api.s2.symv, nullptr);
    lib.symbol("cublasDsymv_v2", api.d2.symv, nullptr);
    lib.symbol("cublasChemv_v2", api.c2.symv, nullptr);
    lib.symbol("cublasZhemv_v2", api.z2.symv, nullptr);
    api.probe.path = lib.path();
    if (!missing.empty()) {
      api.probe.reason = lib.path() + " lacks " + missing;
      return;
    }
    int v[3] = {0, 0, 0};
    if (api.get_property(kMajorVersion, &v[0]) == kSuccess && api.get_property(kMinorVersion, &v[1]) == kSuccess &&
        api.get_property(kPatchLevel, &v[2]) == kSuccess)
      api.probe.version = std::to_string(v[0]) + "." + std::to_string(v[1]) + "." + std::to_string(v[2]);
    else
      api.probe.version = lib.version_from_path();
    api.probe.loaded = true;
  });
  return api;
}

std::string status_text(const CublasApi& api, int s) {
  const char* text = api.status_string ? api.status_string(s) : nullptr;
  return (text ? std::string(text) : std::string("cuBLAS status")) + " (" + std::to_string(s) + ")";
}

}  // namespace optune::tool::cublas
