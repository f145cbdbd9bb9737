#!/usr/bin/env bash
# Compiles every kernel source with clang's OpenCL front end with sub-groups
# and fp16 switched on, so the paths that mobile GPUs take (and that PoCL and
# NVIDIA's OpenCL cannot run) are at least parsed and type-checked in CI.
# The compiles run CHECK_JOBS at once (default: one per hardware thread).
set -euo pipefail
cd "$(dirname "$0")/.."
CLANG=$(command -v clang-15 || command -v clang || true)
if [ -z "$CLANG" ]; then echo "check_kernels: clang-15 not found" >&2; exit 1; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
count=0
# A kernel file may name extra define sets, one per line: "// check-variant: -DTYPE=half -DVW=2",
# and sources the host puts before it: "// check-prepend: gemm/gemm_common.cl".
# "// check-variant-cuda: ..." lines name CUDA-only define sets (PTX inside):
# this script skips them; the NVRTC test (tests/test_cuda_nvrtc.cpp) compiles them.
# "// check-variant-opencl: ..." lines name OpenCL-only ones (packs wider than
# CUDA's vector types carry arithmetic for): this script compiles them, NVRTC not.
# Each compile is written out as a text and a one-line job (the text, the
# defines, what to say if it fails; apart by \037, which no define holds and
# which read does not merge as it merges tabs); the jobs then run in parallel.
for src in $(find src/kernels -name '*.cl' ! -path '*/common/*' | sort); do
  prepend=$(sed -n 's@^// check-prepend: *@@p' "$src" | tr ' ' '\n' | sed '/^$/d; s@^@src/kernels/@')
  variants=("")
  while IFS= read -r line; do variants+=("$line"); done < <(sed -n 's@^// check-variant\(-opencl\)\{0,1\}: *@@p' "$src")
  for defs in "${variants[@]}"; do
  for caps in "1 1 1 1" "0 0 0 0" "1 1 0 1"; do
    # fp16 variants need the fp16 capability, fp64 ones the fp64 capability.
    case "$defs" in *half*) [ "${caps:2:1}" = 1 ] || continue ;; esac
    case "$defs" in *double*) [ "${caps:4:1}" = 1 ] || continue ;; esac
    read -r sg fp16 fp64 img <<<"$caps"
    count=$((count + 1))
    {
      echo "#define OPTUNE_HAS_SUBGROUPS $sg"; echo "#define OPTUNE_HAS_FP16 $fp16"
      echo "#define OPTUNE_HAS_FP64 $fp64"; echo "#define OPTUNE_HAS_IMAGES $img"
      cat src/kernels/common/prelude_opencl.cl src/kernels/common/prelude.cl
      for p in $prepend; do echo "#line 1 \"$p\""; cat "$p"; done
      echo "#line 1 \"$src\""; cat "$src"
    } >"$work/$count.cl"
    printf '%s\037%s\037%s\n' "$work/$count.cl" "$defs" "$src failed with '$defs' and capabilities sg=$sg fp16=$fp16 fp64=$fp64" \
      >>"$work/jobs"
  done
  done
done
# shellcheck disable=SC2016
compile='IFS=$'"'"'\037'"'"' read -r file defs why <<<"$1"
if ! "$0" -cl-std=CL2.0 -Xclang -finclude-default-header \
    -Xclang -cl-ext=+cl_khr_subgroups,+cl_khr_fp16,+cl_khr_fp64 -fsyntax-only $defs "$file"; then
  echo "check_kernels: $why" >&2; exit 1
fi'
fail=0
tr '\n' '\0' <"$work/jobs" | xargs -0 -n 1 -P "${CHECK_JOBS:-$(nproc)}" bash -c "$compile" "$CLANG" || fail=1
echo "check_kernels: $count compiles of $(find src/kernels -name '*.cl' ! -path '*/common/*' | wc -l) sources, $([ $fail = 0 ] && echo ok || echo FAILED)"
exit $fail
