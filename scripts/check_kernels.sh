#!/usr/bin/env bash
# Compiles every kernel source with clang's OpenCL front end with sub-groups
# and fp16 switched on, so the paths that mobile GPUs take (and that PoCL and
# NVIDIA's OpenCL cannot run) are at least parsed and type-checked in CI.
set -euo pipefail
cd "$(dirname "$0")/.."
CLANG=$(command -v clang-15 || command -v clang || true)
if [ -z "$CLANG" ]; then echo "check_kernels: clang-15 not found" >&2; exit 1; fi
fail=0; count=0
# A kernel file may name extra define sets, one per line: "// check-variant: -DTYPE=half -DVW=2",
# and sources the host puts before it: "// check-prepend: gemm/gemm_common.cl".
# "// check-variant-cuda: ..." lines name CUDA-only define sets (PTX inside):
# this script skips them; the NVRTC test (tests/test_cuda_nvrtc.cpp) compiles them.
for src in $(find src/kernels -name '*.cl' ! -path '*/common/*' | sort); do
  prepend=$(sed -n 's@^// check-prepend: *@@p' "$src" | tr ' ' '\n' | sed '/^$/d; s@^@src/kernels/@')
  variants=("")
  while IFS= read -r line; do variants+=("$line"); done < <(sed -n 's@^// check-variant: *@@p' "$src")
  for defs in "${variants[@]}"; do
  for caps in "1 1 1 1" "0 0 0 0" "1 1 0 1"; do
    # fp16 variants need the fp16 capability, fp64 ones the fp64 capability.
    case "$defs" in *half*) [ "${caps:2:1}" = 1 ] || continue ;; esac
    case "$defs" in *double*) [ "${caps:4:1}" = 1 ] || continue ;; esac
    read -r sg fp16 fp64 img <<<"$caps"
    tmp=$(mktemp --suffix=.cl)
    {
      echo "#define OPTUNE_HAS_SUBGROUPS $sg"; echo "#define OPTUNE_HAS_FP16 $fp16"
      echo "#define OPTUNE_HAS_FP64 $fp64"; echo "#define OPTUNE_HAS_IMAGES $img"
      cat src/kernels/common/prelude_opencl.cl src/kernels/common/prelude.cl
      for p in $prepend; do echo "#line 1 \"$p\""; cat "$p"; done
      echo "#line 1 \"$src\""; cat "$src"
    } >"$tmp"
    # shellcheck disable=SC2086
    if ! "$CLANG" -cl-std=CL2.0 -Xclang -finclude-default-header \
        -Xclang -cl-ext=+cl_khr_subgroups,+cl_khr_fp16,+cl_khr_fp64 -fsyntax-only $defs "$tmp"; then
      echo "check_kernels: $src failed with '$defs' and capabilities sg=$sg fp16=$fp16 fp64=$fp64" >&2; fail=1
    fi
    rm -f "$tmp"; count=$((count + 1))
  done
  done
done
echo "check_kernels: $count compiles of $(find src/kernels -name '*.cl' ! -path '*/common/*' | wc -l) sources, $([ $fail = 0 ] && echo ok || echo FAILED)"
exit $fail
