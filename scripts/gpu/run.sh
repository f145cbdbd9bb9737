#!/usr/bin/env bash
# On the GPU machine (H100, CUDA 13, NVIDIA OpenCL driver without an ICD
# file, no network, no Debian registry): unpack the Debian packages carried
# in .deb/, build with CUDA, run the gpu test label (CUDA) and the OpenCL
# suite on the NVIDIA OpenCL device, then `optune bench` on both back ends.
# Results and logs go to $OUT (at most 8 files come back): summary.txt, the
# bench JSON of each back end, the tuned database export of each back end
# (db-cuda.json, db-opencl.json: ship them under database/), and logs.tgz
# with every log and tuning report.
#
#   usage: bash scripts/gpu/run.sh [all|build|test|sanitize|tune|tune-items|bench|tune-bench|test-bench|python|thin-sweep|splitk-sweep|startup|launch-cost|diag|gemm-tc|tensor|conv|conv-bench|params-sweep|ptx-loads|named|conv-tune|conv-implicit|ncu-detail|kcontig-sweep|gemm-bench|tune-pairs|thin-tune|nk-sweep|f64-tune|thin-profile|thin-fuse|thin-regs|mma-fuse|thin-tc|verify|verify-python|final-a|final-b|blas|f64|f64-sweep|host-blas|blas-tri|blas-tri-sweep|blas3|blas-tests|blas-bench|profile|im2col|blas-half] [extra bench args]
# `conv` runs the convolution tests on both back ends and `optune bench conv`
# (conv-cuda.json, conv-opencl.json); `blas` the same for BLAS level 1
# (blas-cuda.json, blas-opencl.json); `blas-tri` the triangular level-2 tests and
# bench rows (into the same blas-*.json names); `blas-tri-sweep` trmv and trsv
# f32 under several blas_tri parameter settings (OPTUNE_PARAMS); `blas3` the same for level 3's
# triangular and rank-k routines, with the blas3 family tuned first; `im2col`
# the same for im2col / col2im (and the convolution tests, which share its kernel).
# `tune-pairs` tunes gemm_tiled on the GEMM transpose-pair buckets and benches
# the transpose group through the result.
# `gemm-bench` runs `optune bench gemm` with the arguments given on both back
# ends (gemm$BENCH_TAG-cuda.json, gemm$BENCH_TAG-opencl.json).
# `kcontig-sweep` benches the transpose group under each KCONTIG_A / KCONTIG_B
# setting (BUILD_TARGETS=optune builds the tool alone).
# `named` runs the test programs of NAMED_TESTS (a ctest regex of program
# names, `|` between them, which the step anchors: no `$` inside, or the
# CUDA form NAME.cuda never matches) on cuda:0 and on the NVIDIA OpenCL device.
# `conv-implicit` benches the conv candidates forced in turn (conv_routine
# KERNEL 7 implicit, 6 winograd, 4 im2col, 0 default), tunes conv_implicit and
# benches it again.
# `host-blas` runs liboptune_blas.so.3's tests on cuda:0 (netlib's programs and
# the C / Fortran checks, every call on the GPU) and `optune bench blas
# --host-interface` against the carried reference BLAS and OpenBLAS, then
# numpy's own matmul on this CPU (host-blas-cuda.json; the measured
# thresholds in host-blas-db.json, to ship under database/cuda/nvidia/).
# The Python module is built for the machine's python3 (the one with torch)
# with pybind11 and DLPack from the carried .deb files; `python` runs its
# pytest suite on cuda:0, examples/python/torch_op.py and
# bench/python_overhead.py (bench-python.json).
# The exit status is non-zero when the build or a test failed.
# Carry: .deb (the .deb files, see scripts/gpu/fetch_debs.sh). GPU_CMAKE_ARGS adds
# configure options (e.g. -DOPTUNE_EMBED_CUBINS=OFF: a build without the
# minute and a half of embedded cubins; kernels then compile at first use: the
# first `optune bench` on a fresh machine then spends about 100 s compiling its
# ceiling and copy kernels before its first row, and a run killed before it
# writes the cache leaves the next run the same work, so give it that time).
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
OUT=${OUT:-/tmp/optune-out}
mkdir -p "$OUT"
WHAT=${1:-all}
shift || true
DEPS=/tmp/optune-deps
ARCH_LIB=usr/lib/x86_64-linux-gnu

# ---- dependencies from the carried .deb files ----
if [ ! -d "$DEPS" ]; then
  mkdir -p "$DEPS"
  for f in .deb/*.deb; do dpkg -x "$f" "$DEPS"; done
fi
export LD_LIBRARY_PATH="$DEPS/$ARCH_LIB:${LD_LIBRARY_PATH:-}"
# NVIDIA's OpenCL driver is installed without an ICD file: name it ourselves.
mkdir -p /tmp/optune-icd
echo "libnvidia-opencl.so.1" > /tmp/optune-icd/nvidia.icd
export OCL_ICD_VENDORS=/tmp/optune-icd
export OCL_ICD_FILENAMES=
export OPTUNE_CACHE_DIR=/tmp/optune-cache

LOGS=/tmp/optune-logs
mkdir -p "$LOGS"
log() { echo "== $*" | tee -a "$OUT/summary.txt"; }
# Everything but the summary, the bench and database JSON goes into one archive.
pack_logs() { tar -C "$LOGS" -czf "$OUT/logs.tgz" . 2>/dev/null; }
trap pack_logs EXIT
STATUS=0

build() {
  log "build $(date -u +%FT%TZ)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv | tee -a "$OUT/summary.txt"
  cmake -S . -B build/gpu -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_PREFIX_PATH="$DEPS/usr" -DCMAKE_LIBRARY_PATH="$DEPS/$ARCH_LIB" \
    -DOpenCL_INCLUDE_DIR="$DEPS/usr/include" -DOpenCL_LIBRARY="$DEPS/$ARCH_LIB/libOpenCL.so" \
    -DSQLite3_INCLUDE_DIR="$DEPS/usr/include" -DSQLite3_LIBRARY="$DEPS/$ARCH_LIB/libsqlite3.so" \
    -DPython_EXECUTABLE="$(command -v python3)" -Dpybind11_DIR="$DEPS/usr/lib/cmake/pybind11" \
    -DOPTUNE_DLPACK_INCLUDE_DIR="$DEPS/usr/include" ${GPU_CMAKE_ARGS:-} \
    >"$LOGS/build.log" 2>&1 &&
    cmake --build build/gpu -j 16 ${BUILD_TARGETS:+--target $BUILD_TARGETS} >>"$LOGS/build.log" 2>&1
  local rc=$?
  tail -5 "$LOGS/build.log"
  # What the embedded-cubin step compiled (tools/embed_cubins), and how long it took.
  grep -h 'optune_embed_cubins' "$LOGS/build.log" | tail -3 | tee -a "$OUT/summary.txt"
  log "build rc=$rc"
  return $rc
}

# The NVIDIA OpenCL device's spec (opencl:P:D), from optune info --json.
ocl_device() {
  [ -f "$LOGS/info.json" ] || ./build/gpu/optune info --json >"$LOGS/info.json" 2>/dev/null
  python3 -c 'import json,sys; d=[x["spec"] for x in json.load(open(sys.argv[1])) if x["backend"]=="opencl" and x["type"]=="gpu"]; print(d[0] if d else "")' "$LOGS/info.json" 2>/dev/null
}

# The devices a sweep or bench_both runs on: cuda:0 and the NVIDIA OpenCL device (where
# there is one), as BENCH_ON (both, the default; cuda; opencl) keeps them.
bench_devices() {
  local ocl
  case "${BENCH_ON:-both}" in both | cuda) echo cuda:0 ;; esac
  case "${BENCH_ON:-both}" in both | opencl) ocl=$(ocl_device) && [ -n "$ocl" ] && echo "$ocl" ;; esac
  return 0
}

tests() {
  ./build/gpu/optune info >"$LOGS/info.txt" 2>&1
  ./build/gpu/optune info --json >"$LOGS/info.json" 2>>"$LOGS/info.txt"
  grep -E '^(backend|opencl:|cuda:)' "$LOGS/info.txt" | tee -a "$OUT/summary.txt"
  local ocl
  ocl=$(ocl_device)
  log "ctest -L gpu (CUDA)"
  (cd build/gpu && ctest -L gpu --output-on-failure -j "${CTEST_JOBS:-10}" --timeout 600) >"$LOGS/tests-cuda.log" 2>&1 || STATUS=1
  grep -E 'tests passed|tests failed|Failed|\*\*\*' "$LOGS/tests-cuda.log" | tail -15 | tee -a "$OUT/summary.txt"
  if [ -n "$ocl" ]; then
    log "ctest -LE gpu|oclgrind on NVIDIA OpenCL ($ocl)"
    (cd build/gpu && OPTUNE_DEVICE=$ocl ctest -LE 'gpu|oclgrind' -E install.consumers --output-on-failure -j 4 --timeout 600) \
      >"$LOGS/tests-opencl.log" 2>&1 || STATUS=1
    grep -E 'tests passed|tests failed|Failed|\*\*\*' "$LOGS/tests-opencl.log" | tail -15 | tee -a "$OUT/summary.txt"
  fi
}

# compute-sanitizer over the gpu-label test programs on cuda:0: memcheck
# (with CUDA API errors reported) over every program, and racecheck,
# synccheck and initcheck over the operator programs (SANITIZE_DEEP), whose
# kernels are the ones with local memory and barriers. Counts per tool and
# program go to summary.txt; any error, or a program that fails or runs past
# SANITIZE_TIMEOUT seconds (default 120), fails the step. SANITIZE_FILTER is
# the gtest filter of the deep tools (default: every case but the large and
# tuning ones, which repeat the same kernels at sizes that make racecheck
# slow). Meant to finish in about 8 minutes on an H100.
SANITIZE_DEEP_DEFAULT="test_elementwise test_reduce test_softmax_norm test_gemm test_gemm_batched test_gemm_thin test_capi"
# One compute-sanitizer run: tool, program, gtest filter; writes its log and
# a line "tool program errors status" to $LOGS/sanitize-lines.
sanitize_one() {
  local cs=$1 tool=$2 prog=$3 filter=$4 extra=() rc line errors status=ok
  [ "$tool" = memcheck ] && extra=(--report-api-errors all --leak-check no)
  # Start from the program's ctest cache where it ran: its programs are
  # compiled once, by the plain run.
  mkdir -p "/tmp/optune-cache-sanitize-$tool-$prog"
  cp -a "build/gpu/tests/cache/$prog.cuda/." "/tmp/optune-cache-sanitize-$tool-$prog/" 2>/dev/null
  OPTUNE_DEVICE=cuda:0 OPTUNE_CACHE_DIR=/tmp/optune-cache-sanitize-$tool-$prog timeout "${SANITIZE_TIMEOUT:-240}" \
    "$cs" --tool "$tool" "${extra[@]}" --print-limit 20 "build/gpu/tests/$prog" --gtest_filter="$filter" \
    >"$LOGS/sanitize-$tool-$prog.log" 2>&1
  rc=$?
  # memcheck, synccheck, initcheck: "ERROR SUMMARY: N errors"; racecheck:
  # "RACECHECK SUMMARY: H hazards displayed (N errors, W warnings)". A
  # program that makes no CUDA call in the filter (a child-only case) ends
  # "before first instrumented API call": nothing to check, 0 errors.
  line=$(grep -E 'ERROR SUMMARY: [0-9]+|RACECHECK SUMMARY: ' "$LOGS/sanitize-$tool-$prog.log" | tail -1)
  errors=$(echo "$line" | sed -n -e 's/.*ERROR SUMMARY: \([0-9]*\).*/\1/p' -e 's/.*(\([0-9]*\) errors.*/\1/p' | head -1)
  if [ -z "$errors" ] && grep -q "terminated before first instrumented API call" "$LOGS/sanitize-$tool-$prog.log"; then
    errors=0 rc=0
  fi
  if [ "$rc" = 124 ]; then status=timeout; elif [ -z "$errors" ]; then status="no summary (rc $rc)";
  elif [ "$rc" != 0 ]; then status="rc $rc"; fi
  printf '%-10s %-28s %8s %s\n' "$tool" "$prog" "${errors:--}" "$status" >>"$LOGS/sanitize-lines"
}
export -f sanitize_one

# compute-sanitizer over the gpu label: memcheck (API errors included) over
# every program, racecheck, synccheck and initcheck over the operator
# programs (SANITIZE_DEEP); SANITIZE_FILTER leaves out the long cases. Runs
# SANITIZE_JOBS (default 8) programs at a time on the one GPU.
# Runs the "tool program" lines of stdin through sanitize_one, SANITIZE_JOBS
# (default 8) at a time, then reports them to summary.txt; any error fails.
sanitize_run() {
  local cs=$1 filter=${SANITIZE_FILTER:-'-*Large*:*Huge*:*Tune*:*Tuner*:*Concurrent*:*Threads*'}
  : >"$LOGS/sanitize-lines"
  LOGS=$LOGS SANITIZE_GTEST_FILTER=$filter xargs -P "${SANITIZE_JOBS:-8}" -L 1 \
    bash -c 'sanitize_one "$0" "$1" "$2" "$SANITIZE_GTEST_FILTER"' "$cs" 2>/dev/null
  printf '%-10s %-28s %8s %s\n' tool program errors status | tee -a "$OUT/summary.txt"
  sort "$LOGS/sanitize-lines" | tee -a "$OUT/summary.txt"
  if grep -vqE '^\S+ +\S+ +0 ok$' "$LOGS/sanitize-lines"; then STATUS=1; fi
}
sanitizer() { command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer; }

sanitize() {
  local cs progs
  cs=$(sanitizer)
  [ -x "$cs" ] || { log "sanitize: compute-sanitizer not found"; return 1; }
  progs=$(cd build/gpu && ctest -L gpu -N | sed -n 's/^ *Test *#[0-9]*: *\([A-Za-z0-9_]*\)\(\.cuda\)\{0,1\}$/\1/p' | sort -u)
  log "sanitize ($("$cs" --version | tail -1)) on cuda:0"
  # (Fed by a process substitution, not a pipe: sanitize_run must set STATUS
  # in this shell.)
  sanitize_run "$cs" < <(
    for prog in $progs; do [ -x "build/gpu/tests/$prog" ] && echo "memcheck $prog"; done
    for tool in racecheck synccheck initcheck; do
      for prog in ${SANITIZE_DEEP:-$SANITIZE_DEEP_DEFAULT}; do echo "$tool $prog"; done
    done
  )
  log "sanitize done (status $STATUS)"
}

# A few gpu-label programs, then compute-sanitizer memcheck and racecheck over
# the tensor-core ones (issue 17), in one call of the machine's time limit.
# VERIFY_TESTS: a ctest regex of the programs (their .cuda entries); the
# sanitizer runs of VERIFY_SANITIZE reuse each program's ctest cache folder,
# so their programs are compiled once, by the plain run.
VERIFY_SANITIZE_DEFAULT="test_gemm_candidate_mma test_gemm_mma test_gemm_bf16 test_gemm_half test_kernels_peak_mma"
verify() {
  named_tests cuda:0 verify "${VERIFY_TESTS:-test_gemm_candidate_mma|test_gemm_mma|test_gemm_bf16|test_gemm_half|test_kernels_peak_mma}"
  local cs prog tool
  cs=$(sanitizer)
  [ -x "$cs" ] || { log "verify: compute-sanitizer not found"; STATUS=1; return; }
  log "verify: memcheck and racecheck ($("$cs" --version | tail -1))"
  sanitize_run "$cs" < <(
    for prog in ${VERIFY_SANITIZE:-$VERIFY_SANITIZE_DEFAULT}; do
      for tool in memcheck racecheck; do echo "$tool $prog"; done
    done
  )
}

# The last calls of a session, each within the machine's 10 minutes:
# `final-a` runs the FINAL_TESTS programs on cuda:0, the Python step and the
# launch-cost diagnostic; `final-b` runs the same programs on the NVIDIA
# OpenCL device, then FINAL_BENCH (suites with their options, `;`-separated,
# each on both back ends; default: gemm's thin group, blas, conv).
FINAL_TESTS_DEFAULT='test_blas1|test_blas1_errors|test_blas2|test_blas2_errors|test_gemm_thin|test_conv|test_conv_implicit|test_conv_errors|test_reference_blas|test_program_cache|test_softmax_norm|test_elementwise|test_capi_errors'
# Test programs matching REGEX (ctest names without .cuda) on DEV: their
# .cuda entries on cuda:0, the plain ones with OPTUNE_DEVICE elsewhere; the
# log is tests-NAME.log.
named_tests() {
  local dev=$1 name=$2 re=$3
  [ -n "$dev" ] || return 0
  log "ctest ($re) on $dev"
  if [ "$dev" = cuda:0 ]; then
    (cd build/gpu && ctest -R "^($re)\.cuda\$" --output-on-failure -j "${CTEST_JOBS:-10}" --timeout "${CTEST_TIMEOUT:-900}") \
      >"$LOGS/tests-$name.log" 2>&1 || STATUS=1
  else
    (cd build/gpu && OPTUNE_DEVICE=$dev ctest -R "^($re)\$" -LE 'gpu|oclgrind' --output-on-failure \
      -j "${CTEST_JOBS:-10}" --timeout "${CTEST_TIMEOUT:-900}") >"$LOGS/tests-$name.log" 2>&1 || STATUS=1
  fi
  # (No match is no reason to skip the other device: `named` chains the two with &&.)
  grep -E 'Test +#|tests passed|tests failed|Failure|No tests were found' "$LOGS/tests-$name.log" | tail -25 |
    tee -a "$OUT/summary.txt" || true
}
final_bench() {
  local ocl item suite dev name
  ocl=$(ocl_device)
  IFS=';' read -r -a items <<<"${FINAL_BENCH:-gemm --gemm-cases thin;blas;conv}"
  for item in "${items[@]}"; do
    suite=${item%% *}
    for dev in cuda:0 "$ocl"; do
      [ -n "$dev" ] || continue
      name=$([ "$dev" = cuda:0 ] && echo cuda || echo opencl)
      log "bench $item on $dev"
      # shellcheck disable=SC2086
      ./build/gpu/optune bench $item --device "$dev" --quiet --json "$OUT/$suite-$name.json" \
        2>>"$LOGS/bench-final.log" | tail -40 | tee -a "$OUT/summary.txt"
    done
  done
}

# Tunes every family on both back ends into the cache file, then exports each
# back end's results in the shipped format. TUNE_BUDGET: seconds per item
# (default 15); TUNE_LIST: the items, family:dtype[:bucket,bucket...[:seconds]]
# (default: every family and type, every bucket; seconds overrides the
# budget for that item; fixed: NAME=VALUE,... held at a value, the tuner's
# --fix); TUNE_ON: cuda, opencl or both (default); TUNE_STRATEGY: random
# (default), anneal or exhaustive; TUNE_JOBS: candidates compiled together
# (optune tune --jobs; random and exhaustive only; default 1: not yet run on
# a GPU, where NVRTC's 1-2 s per candidate is most of a tuning run).
read -r -a TUNED <<<"${TUNE_LIST:-copy:f32 elementwise:f32 elementwise:f16 reduce_rows:f32 reduce_cols:f32 norm_rows:f32 softmax_cols:f32 gemm_routine:f32 gemm_tiled:f32 gemm_direct:f32 gemm_thin:f32 gemm_thin:f16}"
tune() {
  local budget=${TUNE_BUDGET:-15} dev name secs
  for dev in cuda:0 "$(ocl_device)"; do
    [ -n "$dev" ] || continue
    name=$([ "$dev" = cuda:0 ] && echo cuda || echo opencl)
    case "${TUNE_ON:-both}" in both | "$name") ;; *) continue ;; esac
    log "tune on $dev (budget ${budget}s per family and type unless the item says)"
    for item in "${TUNED[@]}"; do
      IFS=: read -r fam dtype sizes secs fixed <<<"$item"
      [ "$sizes" = all ] && sizes=
      ./build/gpu/optune tune "$fam" --dtype "$dtype" ${sizes:+--sizes "$sizes"} ${fixed:+--fix "$fixed"} --device "$dev" \
        --strategy "${TUNE_STRATEGY:-random}" --jobs "${TUNE_JOBS:-1}" --budget "${secs:-$budget}" --save \
        --json "$LOGS/tune-$name-$fam-$dtype-${sizes//[^a-z0-9]/_}.json" \
        >>"$LOGS/tune-$name.txt" 2>&1 || STATUS=1
    done
    grep -E '^optune tune|x  ' "$LOGS/tune-$name.txt" >>"$OUT/summary.txt"
    ./build/gpu/optune db export --device "$dev" "$OUT/db-$name.json" >>"$LOGS/tune-$name.txt" 2>&1 || STATUS=1
  done
}

# Any tuning items, without the rest of `all`: TUNE_ITEMS (space-separated
# family:dtype:buckets:seconds[:fixed], as in TUNED above) on TUNE_ON's back
# ends (both, cuda, opencl), saved to the cache and exported as
# $OUT/db-{cuda,opencl}.json; a bench after it in the same call reads them.
tune_items() {
  local -a TUNED
  read -r -a TUNED <<<"${TUNE_ITEMS:?TUNE_ITEMS names the items}"
  TUNE_STRATEGY=${TUNE_STRATEGY:-anneal} tune
}

# The thin kernel's shape swept through OPTUNE_PARAMS: for each setting of
# THIN_SETS (space-separated gemm_thin values, "default" for the family's
# defaults; default list below), the bench's thin group (M = 1, 8, 16, 32,
# 128 against 4096 x 4096; the thin kernel takes M <= 16) and the thin-N
# products 4096 x {1, 8, 16} x 4096, in THIN_TYPES (default f32,f16), on
# BENCH_ON's back ends. gemm_routine:THIN_MIN=0 sends every thin product to
# the thin kernel (the shipped f16 entry keeps them off it). Each row's %
# column is the fraction of the copy ceiling for reading A and B and
# writing C once; the reference library runs with the defaults only. VW=8
# is f16's 16-byte pack (f32 stays at 4 on CUDA, its widest).
THIN_SETS_DEFAULT="default KU=2 KU=8 WGY=4 WGY=16 FILL=1 FILL=4 SPLIT=1 NJ=2 AV=1 AL=4 VW=8 WGX=64,WGY=4 WGX=8,WGY=32 WGX=8,WGY=32,NJ=4"
thin_sweep() {
  local set dev params n ref
  for dev in $(bench_devices); do
    for set in ${THIN_SETS:-$THIN_SETS_DEFAULT}; do
      params="gemm_routine:THIN_MIN=0" ref=
      [ "$set" = default ] || params="$params;gemm_thin:$set" ref=--no-reference
      log "thin sweep on $dev: $params"
      OPTUNE_PARAMS="$params" ./build/gpu/optune bench gemm --gemm-cases thin --gemm-types "${THIN_TYPES:-f32,f16}" \
        $ref --device "$dev" "$@" 2>>"$LOGS/thin-sweep.log" | tee -a "$OUT/summary.txt"
      for n in 1 8 16; do
        OPTUNE_PARAMS="$params" ./build/gpu/optune bench gemm --gemm-product "4096,$n,4096" \
          --gemm-types "${THIN_TYPES:-f32,f16}" $ref --device "$dev" "$@" 2>>"$LOGS/thin-sweep.log" |
          grep -E '^product' | tee -a "$OUT/summary.txt"
      done
    done
  done
}

# Split K in the tiled and mma candidates (issue 18): the tests on both back
# ends, then each product of SPLITK_PRODUCTS under SPLITK = 0 (automatic), 1,
# 2, 4, 8: the tiled candidate (gemm_routine KERNEL=2) f32 and f64 on both
# back ends, the mma candidate (KERNEL=3) f64 on cuda:0, against the
# reference library, for setting SK_FILL / SK_MINK and the defaults from
# measurement (summary.txt: one line per candidate, setting and product).
# SPLITK_TESTS=0 skips the tests (test_gemm_candidate_mma alone ran past
# three minutes on cuda:0); SPLITK_ON=cuda or opencl keeps one back end.
splitk_sweep() {
  local ocl dev s prod
  ocl=$(ocl_device)
  if [ "${SPLITK_TESTS:-1}" = 1 ]; then
    named_tests cuda:0 splitk-cuda 'test_gemm_splitk|test_gemm_candidate_mma|test_gemm_configs|test_gemm_complex'
    named_tests "$ocl" splitk-opencl 'test_gemm_splitk'
  fi
  for dev in cuda:0 "$ocl"; do
    case "${SPLITK_ON:-both}" in both | "$([ "$dev" = cuda:0 ] && echo cuda || echo opencl)") ;; *) continue ;; esac
    [ -n "$dev" ] || continue
    for prod in ${SPLITK_PRODUCTS:-128,4096,4096 32,4096,4096 4096,128,4096 512,512,512 1024,1024,1024}; do
      for s in ${SPLITK_SETS:-0 1 2 4 8}; do
        log "split-K sweep on $dev: $prod SPLITK=$s"
        OPTUNE_PARAMS="gemm_routine:KERNEL=2;gemm_tiled:SPLITK=$s" ./build/gpu/optune bench gemm --device "$dev" \
          --gemm-product "$prod" --gemm-types "${SPLITK_TYPES:-f32,f64}" "$@" 2>>"$LOGS/splitk-sweep.log" |
          grep -E '^product' | sed "s|^|$dev tiled SPLITK=$s |" | tee -a "$OUT/summary.txt"
        [ "$dev" = cuda:0 ] || continue
        OPTUNE_PARAMS="gemm_routine:KERNEL=3;gemm_mma:SPLITK=$s" ./build/gpu/optune bench gemm --device "$dev" \
          --gemm-product "$prod" --gemm-types f64 "$@" 2>>"$LOGS/splitk-sweep.log" |
          grep -E '^product' | sed "s|^|$dev mma SPLITK=$s |" | tee -a "$OUT/summary.txt"
      done
    done
  done
}

# The tiled kernel's per-operand loads: `optune bench gemm`'s transpose group
# (4096^3, every pair) with the tiled kernel forced, under each KCONTIG_A /
# KCONTIG_B setting (KCONTIG_SETS; "-" is the database's), on both back ends.
# The rows go to summary.txt, the bench JSON into logs.tgz.
kcontig_sweep() {
  local ocl dev set
  ocl=$(ocl_device)
  ./build/gpu/optune info 2>&1 | grep -E '^(opencl:|cuda:)' | tee -a "$OUT/summary.txt"
  for dev in cuda:0 "$ocl"; do
    [ -n "$dev" ] || continue
    for set in ${KCONTIG_SETS:-- KCONTIG_B=0 KCONTIG_A=0 KCONTIG_A=0,KCONTIG_B=0}; do
      log "kcontig sweep on $dev: $set"
      OPTUNE_PARAMS="gemm_routine:KERNEL=2$([ "$set" = - ] || echo ";gemm_tiled:$set")" ./build/gpu/optune bench gemm \
        --device "$dev" --gemm-cases "${KCONTIG_CASES:-transpose}" --gemm-types "${KCONTIG_TYPES:-f32}" \
        --json "$LOGS/kcontig-${dev//[:.]/-}-${set//[=,]/-}.json" "$@" 2>>"$LOGS/kcontig-sweep.log" |
        grep -E "^(${KCONTIG_CASES:-transpose}) " | sed "s|^|$dev $set |" | tee -a "$OUT/summary.txt"
    done
  done
}

# Issue 17's half arithmetic and tensor-core ceiling on cuda:0: the two test
# programs (the tiled and direct kernels' half arithmetic forced, checked
# against the double reference; the tensor-core peak kernel checked
# exactly), `optune bench ceilings` (its tensor rows), and f16 and bf16
# 4096^3 with the routine's choice and then with the tiled kernel forced
# (gemm_routine:KERNEL=2: f16 in half2 arithmetic, bf16 as storage).
tensor() {
  local t
  for t in test_gemm_half test_kernels_peak_mma; do
    log "tensor: $t on cuda:0"
    OPTUNE_DEVICE=cuda:0 OPTUNE_CACHE_DIR=/tmp/optune-cache-$t "build/gpu/tests/$t" >"$LOGS/tensor-$t.log" 2>&1 ||
      STATUS=1
    grep -E '^\[ +(OK|PASSED|FAILED|SKIPPED) ' "$LOGS/tensor-$t.log" | tee -a "$OUT/summary.txt"
  done
  log "tensor: bench ceilings on cuda:0"
  ./build/gpu/optune bench ceilings --device cuda:0 --json "$OUT/bench-ceilings-cuda.json" "$@" \
    2>>"$LOGS/tensor-bench.log" | tee -a "$OUT/summary.txt"
  log "tensor: f16, bf16 4096^3, the routine's choice, then the tiled kernel forced"
  ./build/gpu/optune bench gemm --device cuda:0 --gemm-product 4096,4096,4096 --gemm-types f16,bf16 "$@" \
    2>>"$LOGS/tensor-bench.log" | tee -a "$OUT/summary.txt"
  OPTUNE_PARAMS="gemm_routine:KERNEL=2" ./build/gpu/optune bench gemm --device cuda:0 \
    --gemm-product 4096,4096,4096 --gemm-types f16,bf16 "$@" 2>>"$LOGS/tensor-bench.log" | tee -a "$OUT/summary.txt"
}

# BENCH_ON: cuda, opencl or both (default).
bench() {
  local ocl
  ocl=$(ocl_device)
  if [ "${BENCH_ON:-both}" != opencl ]; then
    log "bench cuda:0"
    ./build/gpu/optune bench --device cuda:0 --json "$OUT/bench-cuda.json" "$@" 2>>"$LOGS/bench.log" | tee -a "$OUT/summary.txt"
  fi
  if [ -n "$ocl" ] && [ "${BENCH_ON:-both}" != cuda ]; then
    log "bench $ocl (NVIDIA OpenCL)"
    ./build/gpu/optune bench --device "$ocl" --json "$OUT/bench-opencl.json" "$@" 2>>"$LOGS/bench.log" | tee -a "$OUT/summary.txt"
  fi
}

# The Python module on cuda:0: pytest (with torch and CuPy round trips where
# installed), the torch.library example, and the binding's bench.
python_step() {
  [ -d build/gpu/python/optune ] || { log "python: the module was not built (see build.log)"; STATUS=1; return; }
  export PYTHONPATH=$ROOT/build/gpu/python
  log "python: pytest on cuda:0"
  OPTUNE_DEVICE=cuda:0 python3 -m pytest -q -p no:cacheprovider -rs tests/python >"$LOGS/python-pytest.log" 2>&1 || STATUS=1
  tail -5 "$LOGS/python-pytest.log" | tee -a "$OUT/summary.txt"
  log "python: examples/python/torch_op.py"
  python3 examples/python/torch_op.py 2>&1 | tee -a "$OUT/summary.txt"
  [ "${PIPESTATUS[0]}" = 0 ] || STATUS=1
  log "python: bench/python_overhead.py"
  python3 bench/python_overhead.py --device cuda:0 --json "$OUT/bench-python.json" 2>>"$LOGS/bench.log" |
    tee -a "$OUT/summary.txt"
  [ "${PIPESTATUS[0]}" = 0 ] || STATUS=1
}

# The tensor-core candidates' tests on cuda:0 and the bench rows of the
# given types (default tf32): `bash scripts/gpu/run.sh gemm-tc tf32,f16`.
gemm_tc() {
  local types=${1:-tf32}
  shift || true
  if [ -z "${GEMM_TC_NO_TESTS:-}" ]; then
  log "tensor-core GEMM tests (cuda:0)"
  (cd build/gpu && OPTUNE_DEVICE=cuda:0 ctest -R 'test_gemm_candidate_mma|test_gemm_bf16|test_gemm_mma' \
    --output-on-failure --timeout 600) >"$LOGS/tests-gemm-tc.log" 2>&1 || STATUS=1
  grep -E 'tests passed|tests failed|Failed|Failure' "$LOGS/tests-gemm-tc.log" | tail -15 | tee -a "$OUT/summary.txt"
  fi
  # The progress (stderr) goes to $OUT too: a run cut at its time limit still
  # shows the rows it measured.
  log "bench gemm $types (cuda:0) $*"
  ./build/gpu/optune bench gemm --device cuda:0 --gemm-types ${types//,/ } --json "$OUT/gemm-tc.json" "$@" \
    2>"$OUT/bench-gemm-progress.log" | tee -a "$OUT/summary.txt"
}

# Host time per small call, split into its parts (scripts/gpu/launch_cost.cpp,
# built against the shared library): on cuda:0 and on the OpenCL GPU.
launch_cost() {
  local ocl
  ocl=$(ocl_device)
  g++ -std=c++20 -O2 -Iinclude scripts/gpu/launch_cost.cpp -Lbuild/gpu -loptune -Wl,-rpath,"$ROOT/build/gpu" \
    -o build/gpu/launch_cost >"$LOGS/launch-cost-build.log" 2>&1 || { log "launch_cost: build failed"; STATUS=1; return; }
  log "launch cost"
  for dev in cuda:0 $ocl; do
    ./build/gpu/launch_cost "$dev" 500 2>&1 | tee -a "$OUT/summary.txt"
  done
}

# `optune bench SUITE` on cuda:0 and on the NVIDIA OpenCL device, JSON in
# $OUT/SUITE-cuda.json and $OUT/SUITE-opencl.json: bench_both SUITE [args]
# (the devices of bench_devices: BENCH_ON cuda or opencl runs the one back end).
bench_both() {
  local suite=$1 dev name
  shift
  for dev in $(bench_devices); do
    name=$([ "$dev" = cuda:0 ] && echo cuda || echo opencl)
    log "bench $suite $dev"
    ./build/gpu/optune bench "$suite" --device "$dev" --json "$OUT/$suite${BENCH_TAG:-}-$name.json" "$@" \
      2>>"$LOGS/bench.log" | tee -a "$OUT/summary.txt"
  done
}

# Start-up with the embedded cubins: the tests that prove them (the gpu
# run asserts a cold SGEMM 256^3 compiles nothing on the H100), then
# `optune bench startup` on both back ends, JSON in $OUT/startup-*.json.
startup() {
  log "embedded cubins and start-up tests (CUDA)"
  (cd build/gpu && ctest -R 'test_embedded_cubins|test_bench_startup' --output-on-failure --timeout 900) \
    >"$LOGS/tests-startup.log" 2>&1 || STATUS=1
  grep -E 'tests passed|tests failed|Failed|Skipped|\*\*\*' "$LOGS/tests-startup.log" | tail -15 | tee -a "$OUT/summary.txt"
  bench_both startup "$@"
}

# Convolution (issue 19): its tests on CUDA and on the NVIDIA OpenCL device,
# the references' checks (cuDNN on CUDA, CLBlast's convgemm on OpenCL), then
# `optune bench conv` on both back ends (JSON in $OUT/conv-*.json; each row
# with the reference's time: cuDNN on CUDA, convgemm on OpenCL for NCHW with
# groups 1).
# The conv bench's reference: cuDNN from the system, else the one PyTorch's
# wheels ship (nvidia.cudnn, or torch/lib in older wheels).
find_cudnn() {
  if [ -z "${OPTUNE_CUDNN_LIBRARY:-}" ] && ! ldconfig -p | grep -q 'libcudnn\.so\.9 '; then
    local lib
    lib=$(python3 -c 'import nvidia.cudnn as c; print(c.__path__[0] + "/lib/libcudnn.so.9")' 2>/dev/null || true)
    [ -f "$lib" ] || lib=$(python3 -c 'import torch, os; print(os.path.dirname(torch.__file__) + "/lib/libcudnn.so.9")' 2>/dev/null || true)
    [ -f "$lib" ] && export OPTUNE_CUDNN_LIBRARY="$lib"
  fi
  log "conv reference: ${OPTUNE_CUDNN_LIBRARY:-system libcudnn}"
}

conv() {
  local ocl
  ocl=$(ocl_device)
  named_tests cuda:0 conv-cuda 'test_conv|test_conv_implicit|test_conv_errors'
  named_tests "$ocl" conv-opencl 'test_conv|test_conv_implicit|test_conv_errors'
  (cd build/gpu && ctest -R '^test_cuda_nvrtc_ops$' --output-on-failure --timeout 900) >"$LOGS/tests-conv.log" 2>&1 ||
    STATUS=1
  find_cudnn
  (cd build/gpu && OPTUNE_DEVICE=cuda:0 ./tests/test_reference_blas --gtest_filter='*Cudnn*:*Probes*') \
    >>"$LOGS/tests-conv.log" 2>&1 || STATUS=1
  # CLBlast's convgemm (the OpenCL reference) against conv2d, f16 too where the device has cl_khr_fp16.
  [ -z "$ocl" ] || (cd build/gpu && OPTUNE_DEVICE=$ocl ./tests/test_reference_blas --gtest_filter='*Clblast*:*Cudnn*') \
    >>"$LOGS/tests-conv.log" 2>&1 || STATUS=1
  grep -E 'tests passed|tests failed|Failed|FAILED|PASSED|\*\*\*' "$LOGS/tests-conv.log" | tail -15 | tee -a "$OUT/summary.txt"
  bench_both conv "$@"
}

# The convolution families tuned (issue 19) on CONV_TUNE_ON's back ends
# (cuda, opencl or both, the default): conv_direct, conv_depthwise,
# conv_depthwise_image (OpenCL only: CUDA has no images), conv_winograd,
# conv_implicit, conv_im2col, then conv_routine (its KERNEL choice timed with the
# candidates' parameters just tuned), f32 and f16, every bucket,
# CONV_TUNE_SECS seconds an item (default 16: 12 items, about 3.5 minutes a
# back end). A cache of its own (kernels compile anew), so that the export
# holds the conv entries alone: $OUT/db-conv-cuda.json and
# $OUT/db-conv-opencl.json, plain `optune db export` files for merge_db.py.
# A type the device does not run is logged and skipped, not a failure.
conv_tune() {
  local secs=${CONV_TUNE_SECS:-16} dev name fam dtype out
  for dev in cuda:0 "$(ocl_device)"; do
    [ -n "$dev" ] || continue
    name=$([ "$dev" = cuda:0 ] && echo cuda || echo opencl)
    case "${CONV_TUNE_ON:-both}" in both | "$name") ;; *) continue ;; esac
    log "conv-tune on $dev (${secs}s per family and type)"
    for fam in conv_direct conv_depthwise conv_depthwise_image conv_winograd conv_implicit conv_im2col conv_routine; do
      [ "$name:$fam" = cuda:conv_depthwise_image ] && continue
      for dtype in f32 f16; do
        out=$(OPTUNE_CACHE_DIR=/tmp/optune-cache-conv-tune ./build/gpu/optune tune "$fam" --dtype "$dtype" \
          --device "$dev" --strategy random --budget "$secs" --save \
          --json "$LOGS/conv-tune-$name-$fam-$dtype.json" 2>&1)
        local rc=$?
        echo "$out" >>"$LOGS/conv-tune-$name.txt"
        if [ $rc -ne 0 ] && grep -q '(unsupported)' <<<"$out"; then
          log "conv-tune $name $fam $dtype: $(grep '(unsupported)' <<<"$out" | head -1)"
        elif [ $rc -ne 0 ]; then
          log "conv-tune $name $fam $dtype failed (rc $rc)"
          STATUS=1
        fi
      done
    done
    grep -E '^optune tune|x  ' "$LOGS/conv-tune-$name.txt" >>"$OUT/summary.txt"
    OPTUNE_CACHE_DIR=/tmp/optune-cache-conv-tune ./build/gpu/optune db export --device "$dev" \
      "$OUT/db-conv-$name.json" >>"$LOGS/conv-tune-$name.txt" 2>&1 || STATUS=1
  done
}

# The implicit-GEMM convolution (conv_implicit, issue 19): the conv tests on
# both back ends, then the issue's conv rows (f32 and f16, both layouts) and
# ResNet-50's layers with conv_routine's KERNEL forced to each general
# candidate in turn (7 implicit, 6 winograd, 4 im2col, 0 the default order)
# on both back ends (JSON in $OUT/conv-k<K>-*.json); then conv_implicit tuned
# (f32 and f16, both layout buckets, 120 s each; exported to $OUT/db-*.json)
# and the same rows again with KERNEL 7 under the tuned parameters; before
# tuning, the f16 rows with conv_implicit's MMA = 1 forced (tensor cores).
conv_implicit() {
  local ocl k
  ocl=$(ocl_device)
  named_tests cuda:0 conv-implicit-cuda 'test_conv|test_conv_implicit'
  named_tests "$ocl" conv-implicit-opencl 'test_conv|test_conv_implicit'
  find_cudnn
  for k in 7 6 4 0; do
    echo "conv_routine KERNEL=$k" | tee -a "$OUT/summary.txt"
    OPTUNE_PARAMS="conv_routine:KERNEL=$k" bench_both conv --conv-cases issue,resnet --only conv3x3,conv1x1,resnet50 "$@"
    for f in "$OUT"/conv-cuda.json "$OUT"/conv-opencl.json; do [ -f "$f" ] && mv "$f" "${f/conv-/conv-k$k-}"; done
  done
  echo "conv_routine KERNEL=7, conv_implicit MMA=1 (f16 rows on tensor cores)" | tee -a "$OUT/summary.txt"
  OPTUNE_PARAMS="conv_routine:KERNEL=7;conv_implicit:MMA=1" ./build/gpu/optune bench conv --device cuda:0 \
    --only "conv3x3 nchw f16,conv3x3 nhwc f16,conv1x1 nchw f16,conv1x1 nhwc f16" --json "$OUT/conv-mma-cuda.json" "$@" \
    2>>"$LOGS/bench.log" | tee -a "$OUT/summary.txt"
  local -a TUNED=("conv_implicit:f32:nchw,nhwc:120" "conv_implicit:f16:nchw,nhwc:120")
  tune
  echo "conv_routine KERNEL=7, conv_implicit tuned" | tee -a "$OUT/summary.txt"
  OPTUNE_PARAMS="conv_routine:KERNEL=7" bench_both conv --conv-cases issue,resnet --only conv3x3,conv1x1,resnet50 "$@"
}

# The f64 tensor-core path (gemm_mma with MMA_F64): its tests and the f64
# GEMM rows on cuda:0 against cuBLAS (extra arguments go to the bench).
f64() {
  if [ -n "${F64_GTEST:-}" ]; then
    log "test_gemm_candidate_mma --gtest_filter=$F64_GTEST on cuda:0"
    OPTUNE_DEVICE=cuda:0 ./build/gpu/tests/test_gemm_candidate_mma --gtest_filter="$F64_GTEST" \
      >"$LOGS/tests-f64-gtest.log" 2>&1 || STATUS=1
    grep -E '^\[  (PASSED|FAILED) |Failure' "$LOGS/tests-f64-gtest.log" | head -20 | tee -a "$OUT/summary.txt"
  fi
  named_tests cuda:0 f64 "${F64_TESTS:-test_gemm_candidate_mma|test_gemm|test_cuda_nvrtc}"
  log "bench gemm f64 on cuda:0"
  ./build/gpu/optune bench gemm --gemm-types f64 --device cuda:0 --quiet --json "$OUT/gemm-f64-cuda.json" "$@" \
    2>>"$LOGS/bench-f64.log" | tail -40 | tee -a "$OUT/summary.txt"
}

# gemm_mma's f64 configurations on one product (F64_SWEEP: ";"-separated
# OPTUNE_PARAMS values for gemm_mma, each optionally followed by "|" and
# OPTUNE_BUILD_OPTIONS; F64_PRODUCT: M,N,K, default 4096,4096,4096).
f64_sweep() {
  local item params opts i=0
  log "f64 sweep on ${F64_PRODUCT:-4096,4096,4096}"
  IFS=';' read -r -a items <<<"${F64_SWEEP:-BM=64,BN=64,WM=32,WN=32}"
  for item in "${items[@]}"; do
    params=${item%%|*}; opts=""; [ "$item" != "$params" ] && opts=${item#*|}
    i=$((i + 1))
    OPTUNE_PARAMS="gemm_mma:$params" OPTUNE_BUILD_OPTIONS="$opts" ./build/gpu/optune bench gemm --device cuda:0 \
      --gemm-product "${F64_PRODUCT:-4096,4096,4096}" --gemm-types f64 --quiet --json "$LOGS/f64-sweep-$i.json" \
      >>"$LOGS/f64-sweep.log" 2>&1
    python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["operators"]["gemm"]["rows"][0]; ref=r["reference"]; print("%-60s %8.0f GF/s  cuBLAS %8.0f  x%.2f" % (sys.argv[2], r["gflops"], ref.get("gflops") or 0, ref.get("speed_ratio") or 0))' \
      "$LOGS/f64-sweep-$i.json" "$item" 2>&1 | tee -a "$OUT/summary.txt"
  done
}

# BLAS in half precision (issue 20): test_blas_half (every h routine) and
# test_reference_blas (its HalfLevel1AndGemvAgreeOrSayWhyNot: cuBLAS's h
# reference against optune's) on CUDA and the NVIDIA OpenCL device, then the f16 bench rows (level 1's axpy,
# dot, nrm2 and level 2's gemv, gemv_t, ger, symv: fractions of the copy
# ceiling; on CUDA against cuBLAS's AxpyEx, DotEx, Nrm2Ex and GemmEx with
# n = 1 for gemv, each row's reference.reason saying why where there is none)
# on both back ends (JSON in $OUT/blas-*.json, the
# names the blas step writes: run one or the other).
blas_half() {
  local ocl
  ocl=$(ocl_device)
  named_tests cuda:0 blas-half-cuda 'test_blas_half|test_reference_blas'
  named_tests "$ocl" blas-half-opencl 'test_blas_half|test_reference_blas'
  bench_both blas --only f16 "$@"
}

# BLAS (issue 20): level 1, complex GEMM, symm and hemm tests on CUDA and on
# the NVIDIA OpenCL device, then `optune bench blas` on both back ends (level
# 1 rows, and cgemm / symm at 4096 against cuBLAS or CLBlast; JSON in
# $OUT/blas-*.json).
blas() {
  local ocl
  ocl=$(ocl_device)
  named_tests cuda:0 blas-cuda 'test_blas1|test_blas1_errors|test_blas2|test_blas2_errors|test_gemm_complex|test_symm'
  named_tests "$ocl" blas-opencl \
    'test_blas1|test_blas1_errors|test_blas2|test_blas2_errors|test_blas2.split|test_gemm_complex|test_symm'
  bench_both blas "$@"
}

# liboptune_blas.so.3 (issue 21): the netlib programs (from the carried
# libblas-test) and the C and Fortran checks through their .cuda entries
# (OPTUNE_BLAS_THRESHOLD=0: every call on the GPU, copies included), then the
# host-interface bench on cuda:0 against the carried BLAS libraries (it also
# forces every call into the caller's thread, to the GPU and to PoCL, where
# PoCL is installed, and prints the crossovers; --host-db writes them, the
# in-thread thresholds included, for shipping), then numpy's own matmul on
# this CPU in the same run.
host_blas() {
  export OPTUNE_NETLIB_BLAS_DIR="$DEPS/$ARCH_LIB/blas"
  named_tests cuda:0 host-blas-cuda 'netlib\..*|hostblas\..*|test_host_blas_bench'
  log "bench blas --host-interface on cuda:0"
  timeout 600 ./build/gpu/optune bench blas --host-interface --device cuda:0 --json "$OUT/host-blas-cuda.json" \
    --host-db "$OUT/host-blas-db.json" \
    --host-blas "reference=$DEPS/$ARCH_LIB/blas/libblas.so.3,openblas=$DEPS/$ARCH_LIB/openblas-pthread/libblas.so.3" \
    "$@" 2>>"$LOGS/bench-host-blas.log" | tail -80 | tee -a "$OUT/summary.txt"
  log "the C program (bench/host_blas_gemm.c): optune (cuda:0), OpenBLAS, reference"
  local lib
  for lib in build/gpu/blas/liboptune_blas.so.3 "$DEPS/$ARCH_LIB/openblas-pthread/libblas.so.3" \
             "$DEPS/$ARCH_LIB/blas/libblas.so.3"; do
    OPTUNE_DEVICE=cuda:0 timeout 120 ./build/gpu/optune_host_blas_gemm "$lib" 16 1000 2>&1 | tee -a "$OUT/summary.txt"
    case $lib in *openblas* | *optune*)
      OPTUNE_DEVICE=cuda:0 timeout 200 ./build/gpu/optune_host_blas_gemm "$lib" 4096 5 2>&1 | tee -a "$OUT/summary.txt" ;;
    esac
  done
  numpy_matmul
}

# numpy's matmul (its own OpenBLAS) at 16 and 4096, f32 and f64.
numpy_matmul() {
  python3 - <<'PY' 2>&1 | tee -a "$OUT/summary.txt"
import time
import numpy as np
for dt in (np.float32, np.float64):
    for n in (16, 4096):
        a = np.random.rand(n, n).astype(dt)
        b = np.random.rand(n, n).astype(dt)
        a @ b
        reps = 2000 if n == 16 else 5
        t = []
        for _ in range(reps):
            s = time.perf_counter()
            a @ b
            t.append(time.perf_counter() - s)
        t.sort()
        print(f"numpy {np.__version__} matmul {np.dtype(dt).name} n={n}: {t[len(t) // 2] * 1e6:.1f} us per call (median)")
PY
}

# The host interface's staged copies (src/hostblas/staging.hpp): netlib's
# programs and the host checks on cuda:0 with every operand staged in
# 1000-byte chunks, then SGEMM / DGEMM 4096 through the C program with the
# default staging and a sweep of workers x chunk, and numpy's matmul.
host_stage() {
  export OPTUNE_NETLIB_BLAS_DIR="$DEPS/$ARCH_LIB/blas"
  OPTUNE_BLAS_STAGE_BYTES=0 OPTUNE_BLAS_STAGE_CHUNK=1000 OPTUNE_BLAS_STAGE_THREADS=5 \
    named_tests cuda:0 host-stage-cuda 'netlib\..*|hostblas\..*'
  local lib=build/gpu/blas/liboptune_blas.so.3 t c
  OPTUNE_DEVICE=cuda:0 timeout 100 ./build/gpu/optune_host_blas_gemm "$lib" 4096 9 2>&1 | tee -a "$OUT/summary.txt"
  for t in ${STAGE_THREADS_SWEEP:-4 8 12}; do
    for c in ${STAGE_CHUNK_SWEEP:-1048576 2097152 4194304}; do
      echo "workers $t chunk $c" | tee -a "$OUT/summary.txt"
      OPTUNE_BLAS_STAGE_THREADS=$t OPTUNE_BLAS_STAGE_CHUNK=$c OPTUNE_DEVICE=cuda:0 timeout 100 \
        ./build/gpu/optune_host_blas_gemm "$lib" 4096 5 2>&1 | tee -a "$OUT/summary.txt"
    done
  done
  OPTUNE_DEVICE=cuda:0 timeout 200 ./build/gpu/optune_host_blas_gemm "$DEPS/$ARCH_LIB/openblas-pthread/libblas.so.3" \
    4096 3 2>&1 | tee -a "$OUT/summary.txt"
  numpy_matmul
}

# BLAS level 2 triangular (issue 20): its tests on CUDA and on the NVIDIA
# OpenCL device (the solves' one-launch mode, PERSIST 1, is the GPU default),
# then the trmv / trsv rows of `optune bench blas` on both back ends.
blas_tri() {
  local ocl
  ocl=$(ocl_device)
  named_tests cuda:0 blas-tri-cuda 'test_blas_tri|test_blas_tri_errors'
  named_tests "$ocl" blas-tri-opencl 'test_blas_tri|test_blas_tri_errors'
  bench_both blas --only trmv-f32,trsv-f32,trmv-f64,trsv-f64,trmv-c32,trsv-c32 "$@"
}

# blas_tri's parameters swept through OPTUNE_PARAMS on cuda:0 (and the NVIDIA
# OpenCL device with TRI_SWEEP_OCL=1): trmv f32 over RV, SW, NB, trsv f32 over
# NB, WGS, HELP; one summary line per setting (time, GB/s, fraction of copy, x
# cuBLAS). TRI_MV_SETS / TRI_SV_SETS replace the lists (blas_tri:... values).
blas_tri_sweep() {
  local dev devs=(cuda:0) set
  [ "${TRI_SWEEP_OCL:-0}" = 1 ] && devs+=("$(ocl_device)")
  local mv_sets=${TRI_MV_SETS:-"RV=1,SW=256,NB=32 RV=4,SW=128,NB=32 RV=4,SW=256,NB=32 RV=4,SW=512,NB=32 RV=4,SW=1024,NB=32 RV=4,SW=128,NB=64 RV=4,SW=256,NB=64 RV=4,SW=512,NB=64 RV=4,SW=256,NB=64,WGS=128 RV=4,SW=512,NB=64,WGS=512"}
  local sv_sets=${TRI_SV_SETS:-"NB=32,WGS=256,HELP=0 NB=64,WGS=256,HELP=0 NB=64,WGS=512,HELP=0 NB=64,WGS=256,HELP=1 NB=64,WGS=256,HELP=3 NB=64,WGS=256,HELP=7 NB=32,WGS=256,HELP=3 NB=64,WGS=512,HELP=3 NB=32,WGS=128,HELP=7"}
  for dev in "${devs[@]}"; do
    [ -n "$dev" ] || continue
    for set in $mv_sets; do
      echo "trmv-f32 $dev blas_tri:$set" | tee -a "$OUT/summary.txt"
      OPTUNE_PARAMS="blas_tri:$set" ./build/gpu/optune bench blas --only trmv-f32 --device "$dev" 2>>"$LOGS/bench.log" |
        grep -E '^ *trmv' | tee -a "$OUT/summary.txt"
    done
    for set in $sv_sets; do
      echo "trsv-f32 $dev blas_tri:$set,PERSIST=1" | tee -a "$OUT/summary.txt"
      OPTUNE_PARAMS="blas_tri:$set,PERSIST=1" ./build/gpu/optune bench blas --only trsv-f32 --device "$dev" 2>>"$LOGS/bench.log" |
        grep -E '^ *trsv' | tee -a "$OUT/summary.txt"
    done
  done
}

# im2col and col2im (issue 20): their tests and the convolution's (which
# shares the im2col kernel) on CUDA and on the NVIDIA OpenCL device, then the
# im2col / col2im rows of `optune bench blas` on both back ends (JSON in
# $OUT/blas-*.json, key im2col; CLBlast is the reference on OpenCL, cuBLAS
# has none).
im2col() {
  local ocl
  ocl=$(ocl_device)
  named_tests cuda:0 im2col-cuda 'test_blas_im2col|test_conv'
  named_tests "$ocl" im2col-opencl 'test_blas_im2col|test_conv'
  bench_both blas --only im2col,col2im "$@"
}

# BLAS level 3 triangular and rank-k (issue 20; c and z, herk and her2k
# included in the tests): their tests on CUDA and on
# the NVIDIA OpenCL device, the blas3 family tuned (f32 and f64, the
# buckets of n > 2048 and n <= 2048; saved, and exported with the device's
# database to $OUT/db-*.json), then the level-3 rows of `optune bench blas`
# (syrk, syr2k, trmm, trsm at 4096 in f32, f64 and c32, herk and her2k in
# c32, against cuBLAS / CLBlast) on both back
# ends (JSON in $OUT/blas-*.json, key level3_rows).
blas3() {
  local ocl
  ocl=$(ocl_device)
  named_tests cuda:0 blas3-cuda 'test_blas3|test_blas3_complex|test_blas3_errors'
  named_tests "$ocl" blas3-opencl 'test_blas3|test_blas3_complex|test_blas3_errors'
  local -a TUNED=("blas3:f32:tri/n>2048,rank/n>2048,tri/n<=2048,rank/n<=2048:120"
                  "blas3:f64:tri/n>2048,rank/n>2048:60")
  tune
  bench_both blas --only syrk,syr2k,trmm,trsm,herk,her2k "$@"
}

# The GEMM transpose pairs (issue 18): gemm_tiled tuned on the refined
# buckets (f32 and f64 medium and large, NT and TT; PAIRS_SECS seconds each)
# on both back ends, saved in the cache and exported (db-cuda.json,
# db-opencl.json: ship what beats the size bucket's entry), then the transpose
# group and its second sizes through the result.
tune_pairs() {
  local secs=${PAIRS_SECS:-60}
  local -a TUNED=("gemm_tiled:f32:medium/nt,medium/tt,large/nt,large/tt:$((4 * secs))"
                  "gemm_tiled:f64:medium/nt,medium/tt,large/nt,large/tt:$((4 * secs))")
  tune
  BENCH_TAG=-pairs bench_both gemm --gemm-cases transpose --gemm-types f32,f64 "$@"
}

# The thin kernel (issue 18: M <= 16 at 80% of the copy ceiling): gemm_thin
# f32 annealed on its M <= 16 buckets, both ways of reading B (THIN_SECS
# scales the seconds), on both back ends, saved and exported (db-cuda.json,
# db-opencl.json), then the thin group and the second sizes of its buckets
# (M = 8, 4 and 2 NT and NN; N = 8 and 16 NN, B read along K with A stored
# K x M) through the result (gemm-thin*-*.json).
thin_tune() {
  local f=${THIN_SECS:-1}
  local -a TUNED=("gemm_thin:f32:m<=16/nk:$((80 * f)):AL=0" "gemm_thin:f32:m<=1/nk,m<=4/nk:$((40 * f)):AL=0"
                  "gemm_thin:f32:m<=16/kn:$((50 * f))")
  TUNE_STRATEGY=${TUNE_STRATEGY:-anneal} tune
  BENCH_TAG=-thin bench_both gemm --gemm-cases thin --gemm-types f32 "$@"
  BENCH_TAG=-thin-nt bench_both gemm --gemm-product 8,4096,4096,4,4096,4096,2,4096,4096 --gemm-trans NT \
    --gemm-types f32 "$@"
  BENCH_TAG=-thin-nn bench_both gemm --gemm-product 8,4096,4096,4,4096,4096,4096,8,4096,4096,16,4096 \
    --gemm-types f32 "$@"
}

# The thin kernel where it reads B along K (B stored N x K: x W^T with M
# thin, and N thin with A stored row-major, whose thin operand is then
# stored K x M), forced through OPTUNE_PARAMS: for each gemm_thin setting of
# NK_SETS (space-separated; gemm_routine THIN_MIN 0 keeps the products on the
# thin kernel), the products of NK_PRODUCTS / NK_TRANS, f32, no reference,
# one line per product (device, setting, row) in summary.txt.
NK_SETS_DEFAULT="WGX=16,WGY=8,NJ=4,KU=2,PF=1 WGX=16,WGY=8,NJ=4,KU=1,PF=1 WGX=32,WGY=8,NJ=4,KU=2,PF=1 WGX=4,WGY=32,NJ=4,KU=2,PF=1 WGX=32,WGY=8,NJ=4,KU=4,SG=1,SPLIT=4 WGX=8,WGY=32,NJ=4,KU=4 WGX=8,WGY=32,NJ=4,KU=2 WGX=8,WGY=32,NJ=2,KU=4 WGX=8,WGY=32,NJ=2,KU=8 WGX=8,WGY=16,NJ=4,KU=4 WGX=8,WGY=64,NJ=2,KU=4 WGX=4,WGY=32,NJ=4,KU=4 WGX=4,WGY=64,NJ=2,KU=4 WGX=4,WGY=32,NJ=2,KU=8 WGX=16,WGY=16,NJ=4,KU=4 WGX=16,WGY=8,NJ=4,KU=2 WGX=1,WGY=64,NJ=2,KU=8 WGX=1,WGY=64,NJ=4,KU=4 WGX=8,WGY=32,NJ=4,KU=4,FILL=16 WGX=8,WGY=32,NJ=4,KU=4,SPLIT=1 WGX=8,WGY=32,NJ=4,KU=4,FILL=32 WGX=8,WGY=32,NJ=4,KU=2,VW=8 WGX=4,WGY=32,NJ=4,KU=2,VW=8"
nk_sweep() {
  local dev set
  for dev in $(bench_devices); do
    for set in ${NK_SETS:-$NK_SETS_DEFAULT}; do
      OPTUNE_PARAMS="gemm_routine:THIN_MIN=0;gemm_thin:MT=16,VW=4,AV=4,AL=0,$set" ./build/gpu/optune bench gemm \
        --gemm-product "${NK_PRODUCTS:-16,4096,4096,8,4096,4096,1,4096,4096,4096,16,4096,4096,8,4096}" \
        --gemm-trans "${NK_TRANS:-NT,NT,NT,NN,NN}" --gemm-types f32 --no-reference --device "$dev" "$@" \
        2>>"$LOGS/nk-sweep.log" | tee -a "$LOGS/nk-sweep.txt" | grep -E '^product' | sed "s|^|$dev $set |" |
        tee -a "$OUT/summary.txt"
    done
  done
}

# Any OPTUNE_PARAMS settings over the database's entries (partial: the named
# values replace the entry's, the rest stay), one bench per setting and
# device: SWEEP_SETS (space-separated; `-` for the entries as shipped),
# SWEEP_SUITE (default gemm) and the bench's own arguments after the step,
# e.g. SWEEP_SETS='- gemm_thin:MT=8' bash scripts/gpu/run.sh params-sweep
# --gemm-product 16,4096,4096 --gemm-trans NT --gemm-types f32. Rows in
# $OUT/params-sweep.txt and summary.txt, prefixed by device and setting.
# SWEEP_BUILD_OPTIONS: compiler options, one word per run (- for none), each
# set is run under in turn (OPTUNE_BUILD_OPTIONS, e.g. -cl-nv-maxrregcount=64).
params_sweep() {
  local dev set opt
  for dev in $(bench_devices); do
    for opt in ${SWEEP_BUILD_OPTIONS:--}; do
      for set in ${SWEEP_SETS:--}; do
        OPTUNE_BUILD_OPTIONS="$([ "$opt" = - ] || echo "$opt")" OPTUNE_PARAMS="$([ "$set" = - ] || echo "$set")" \
          ./build/gpu/optune bench "${SWEEP_SUITE:-gemm}" \
          --device "$dev" "$@" 2>>"$LOGS/params-sweep.log" | tee -a "$LOGS/params-sweep-full.txt" |
          grep -E '[0-9]x[0-9]|^[a-z0-9_-]+ +(f16|bf16|f32|f64|c32|c64) ' | sed "s|^|$dev $opt $set |" |
          tee -a "$OUT/params-sweep.txt" "$OUT/summary.txt"
      done
    done
  done
}

# The PTX that NVIDIA's OpenCL made of the kernels whose entry matches
# PTX_ENTRY (default conv_depthwise), after `optune bench` with the
# arguments given on the OpenCL device under a fresh cache: memory
# instructions by kind and ptxas's registers (ptx-loads.txt; the PTX in logs.tgz).
ptx_loads() {
  local ocl cache=/tmp/optune-cache-ptx
  ocl=$(ocl_device)
  [ -n "$ocl" ] || { log "ptx-loads: no OpenCL GPU"; STATUS=1; return; }
  rm -rf "$cache"
  OPTUNE_CACHE_DIR=$cache ./build/gpu/optune bench "${SWEEP_SUITE:-conv}" --device "$ocl" "$@" \
    >"$LOGS/ptx-bench.txt" 2>&1 || STATUS=1
  grep -E '[0-9]x[0-9]' "$LOGS/ptx-bench.txt" | tee -a "$OUT/summary.txt"
  python3 scripts/gpu/ptx_loads.py "$cache" "${PTX_ENTRY:-conv_depthwise}" --ptxas sm_90 --save "$LOGS/ptx" |
    tee "$OUT/ptx-loads.txt" | tee -a "$OUT/summary.txt"
}

# The two ways of timing (optune bench --timing): each measurement's runs
# enqueued together (back-to-back, the default) or each waited for before the
# next (isolated: on CUDA the host's launch latency lands in every run), on
# the rows where a run is tens of microseconds: the thin gemm group (f32,
# with the reference) and the depthwise 3x3 rows (with cuDNN on CUDA), both
# back ends; JSON in $OUT/timing-{b2b,isolated}-{gemm,conv}-*.json.
timing_modes() {
  local mode tag
  find_cudnn
  for mode in back-to-back isolated; do
    tag=$([ "$mode" = isolated ] && echo isolated || echo b2b)
    BENCH_TAG=-timing-$tag bench_both gemm --gemm-cases thin --gemm-types f32 --timing "$mode" --quiet "$@"
    BENCH_TAG=-timing-$tag bench_both conv --conv-quick --only dw3x3 --timing "$mode" --quiet "$@"
  done
}

# The rows of the full gemm bench below issue 18's floor on the H200: f64 on
# CUDA (gemm_mma, 0.61-0.75x cuBLAS from 1024^3) and f64 / f32 small and
# medium squares on OpenCL (0.84-0.88x CLBlast), annealed per back end
# (F64_SECS scales the seconds), exported, then those squares benched through
# the result (gemm-f64tune-*.json). F64_TUNE_SECOND=1 runs the second round
# instead: gemm_direct f32 small on CUDA (256^3 at 0.73x cuBLAS) and
# gemm_tiled f64 medium on OpenCL (512^3 at 0.81x CLBlast; the first round's
# budget ran out before it).
f64_tune() {
  local f=${F64_SECS:-1}
  local -a TUNED
  if [ "${F64_TUNE_SECOND:-0}" = 1 ]; then
    TUNED=("gemm_direct:f32:small:$((40 * f))"); TUNE_ON=cuda TUNE_STRATEGY=anneal tune
    TUNED=("gemm_tiled:f64:medium:$((100 * f))"); TUNE_ON=opencl TUNE_STRATEGY=anneal tune
  else
    TUNED=("gemm_mma:f64:large:$((120 * f))" "gemm_mma:f64:medium:$((60 * f))")
    TUNE_ON=cuda TUNE_STRATEGY=anneal tune
    TUNED=("gemm_tiled:f64:small,medium:$((90 * f))" "gemm_direct:f64:small:$((30 * f))" "gemm_direct:f32:small:$((30 * f))")
    TUNE_ON=opencl TUNE_STRATEGY=anneal tune
  fi
  BENCH_TAG=-f64tune bench_both gemm --gemm-product 256,256,256,512,512,512,1024,1024,1024,2048,2048,2048,4096,4096,4096 \
    --gemm-types f32,f64 "$@"
}

# What bounds the thin kernel (issue 18: M <= 16 under a third of the copy
# ceiling along K): ncu's speed-of-light, occupancy, launch, warp-state and
# memory sections for gemm_thin on each product of THIN_PROFILE_PRODUCTS
# (M,N,K,TRANS; default 16 x 4096 x 4096 NT and NN) through the shipped
# entries (forced, see below); the full CSV per product in $OUT, the main
# figures in summary.txt.
thin_profile() {
  local item prod tr n=0
  for item in ${THIN_PROFILE_PRODUCTS:-16,4096,4096,NT 16,4096,4096,NN}; do
    prod=${item%,*} tr=${item##*,} n=$((n + 1))
    log "ncu: gemm_thin on $prod $tr (cuda:0)"
    # The product once without ncu first: a stored entry's trust check (its
    # launches on the thinnest bucket's example, M = 1, same grid) runs once
    # per cache directory, so under ncu the third launch of the main kernel
    # (not the second pass: its exact name) is the bench's own.
    ./build/gpu/optune bench gemm --gemm-product "$prod" --gemm-trans "$tr" --gemm-types f32 --no-reference \
      --runs 1 --copy-mib 64 --device cuda:0 >/dev/null 2>>"$LOGS/thin-profile.log"
    OPTUNE_PARAMS="${THIN_PROFILE_PARAMS:-}" \
    timeout 300 ncu --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
      --section MemoryWorkloadAnalysis --kernel-name gemm_thin --launch-skip 2 --launch-count 1 --csv \
      --page details ./build/gpu/optune bench gemm --gemm-product "$prod" --gemm-trans "$tr" --gemm-types f32 \
      --no-reference --runs 3 --copy-mib 64 --device cuda:0 >"$OUT/thin-profile-$n.csv" 2>>"$LOGS/thin-profile.log" ||
      STATUS=1
    python3 - "$OUT/thin-profile-$n.csv" <<'PY' 2>&1 | tee -a "$OUT/summary.txt"
import csv, sys
rows = list(csv.reader(l for l in open(sys.argv[1]) if l.startswith('"')))
if len(rows) < 2:
    print("no kernel profiled"); sys.exit()
h = rows[0]
col = {k: h.index(k) for k in ("Kernel Name", "Block Size", "Grid Size", "Section Name", "Metric Name", "Metric Unit", "Metric Value")}
print(rows[1][col["Kernel Name"]][:60], "block", rows[1][col["Block Size"]], "grid", rows[1][col["Grid Size"]])
keep = ("Duration", "DRAM Throughput", "Memory Throughput", "L1/TEX Hit", "L1/TEX Cache Throughput", "L2 Cache Throughput",
        "Compute (SM) Throughput", "Registers Per Thread", "Achieved Occupancy", "Theoretical Occupancy",
        "Block Limit Registers", "Block Limit Shared Mem", "Waves Per SM", "Warp Cycles Per Issued Instruction",
        "Issue Slots Busy", "Avg. Active Threads Per Warp", "Mem Busy", "Max Bandwidth")
for r in rows[1:]:
    if r[col["Metric Name"]] in keep:
        print(f"  {r[col['Section Name']][:26]:26} {r[col['Metric Name']]:36} {r[col['Metric Value']]:>12} {r[col['Metric Unit']]}")
PY
  done
}

# The thin kernel's split K, fused (FUSE 1: each tile's last group adds the
# partials) against the second pass (FUSE 0): every gemm_thin launch of one
# product under ncu (its own duration, registers and grid: what the event
# timing adds around it), then the thin group on both back ends under each
# (gemm-thin-fuse{1,0}-{cuda,opencl}.json).
thin_fuse() {
  local item prod tr fuse
  # Its tests first where they were built (BUILD_TARGETS naming test_gemm_thin
  # and test_cuda_nvrtc): CUDA, then NVIDIA's OpenCL.
  if [ -x build/gpu/tests/test_gemm_thin ] || [ -x build/gpu/test_gemm_thin ]; then
    named_tests cuda:0 thin-cuda 'test_gemm_thin|test_cuda_nvrtc'
    named_tests "$(ocl_device)" thin-opencl 'test_gemm_thin'
  fi
  for item in ${THIN_PROFILE_PRODUCTS:-16,4096,4096,NT 8,4096,4096,NT 16,4096,4096,NN}; do
    prod=${item%,*} tr=${item##*,}
    for fuse in 1 0; do
      log "ncu launches: gemm_thin on $prod $tr FUSE=$fuse (cuda:0)"
      OPTUNE_PARAMS="gemm_thin:FUSE=$fuse" timeout 300 ncu --metrics gpu__time_duration.sum,launch__registers_per_thread \
        --kernel-name regex:gemm_thin --launch-count 10 --csv ./build/gpu/optune bench gemm --gemm-product "$prod" \
        --gemm-trans "$tr" --gemm-types f32 --no-reference --runs 3 --copy-mib 64 --device cuda:0 \
        >"$LOGS/launches-$prod-$tr-$fuse.csv" 2>>"$LOGS/thin-fuse.log" || STATUS=1
      python3 - "$LOGS/launches-$prod-$tr-$fuse.csv" <<'PY' 2>&1 | tee -a "$OUT/summary.txt"
import csv, sys
rows = list(csv.reader(l for l in open(sys.argv[1]) if l.startswith('"')))
if len(rows) < 2:
    print("  no kernel profiled"); sys.exit()
h = rows[0]
c = {k: h.index(k) for k in ("ID", "Kernel Name", "Grid Size", "Metric Name", "Metric Value")}
seen = {}
for r in rows[1:]:
    seen.setdefault(r[c["ID"]], [r[c["Kernel Name"]][:20], r[c["Grid Size"]], {}])[2][r[c["Metric Name"]]] = r[c["Metric Value"]]
for i, (name, grid, m) in seen.items():
    print(f"  {i:>3} {name:20} grid {grid:14} regs {m.get('launch__registers_per_thread', '?'):>4}"
          f" {m.get('gpu__time_duration.sum', '?'):>10} ns")
PY
    done
  done
  for fuse in 1 0; do
    OPTUNE_PARAMS="gemm_thin:FUSE=$fuse" BENCH_TAG=-thin-fuse$fuse bench_both gemm --gemm-cases thin "$@"
  done
}

# gemm_mma's split K with the ranges added in the kernel (FUSE 1) against the
# second pass (FUSE 0), issue 18: every gemm_mma and gemm_copy_back launch's
# duration under ncu for each product of MMA_FUSE_PRODUCTS (TYPE,M,N,K,TRANS),
# then the fused kernel's warp stalls by SASS line (ncu's SourceCounters, one
# launch, the source page as CSV in $OUT: where its ~10 us tail waits), then
# the thin group under each value. Every ncu step is time-boxed (the fourteenth
# session's unbounded source export overran its call).
mma_fuse() {
  local item t prod tr fuse n=0
  for item in ${MMA_FUSE_PRODUCTS:-f16,16,4096,4096,NN f32,16,4096,4096,NT}; do
    t=${item%%,*} prod=${item#*,} tr=${prod##*,} prod=${prod%,*} n=$((n + 1))
    for fuse in 1 0; do
      log "ncu launches: gemm_mma on $t $prod $tr FUSE=$fuse (cuda:0)"
      OPTUNE_PARAMS="gemm_mma:FUSE=$fuse" timeout 120 ncu --metrics gpu__time_duration.sum,sm__cycles_active.avg,sm__cycles_elapsed.max \
        --kernel-name regex:'gemm_mma|gemm_copy_back' --launch-skip 4 --launch-count 6 --csv ./build/gpu/optune bench gemm \
        --gemm-product "$prod" --gemm-trans "$tr" --gemm-types "$t" --no-reference --runs 3 --copy-mib 64 --device cuda:0 \
        >"$OUT/mma-fuse-launches-$n-$fuse.csv" 2>>"$LOGS/mma-fuse.log" || STATUS=1
      python3 - "$OUT/mma-fuse-launches-$n-$fuse.csv" "$t $prod $tr FUSE=$fuse" <<'PY' 2>&1 | tee -a "$OUT/summary.txt"
import csv, sys
rows = list(csv.reader(l for l in open(sys.argv[1]) if l.startswith('"')))
print(sys.argv[2])
if len(rows) < 2:
    print("  no kernel profiled"); sys.exit()
h = rows[0]
c = {k: h.index(k) for k in ("ID", "Kernel Name", "Metric Name", "Metric Value")}
seen = {}
for r in rows[1:]:
    seen.setdefault(r[c["ID"]], [r[c["Kernel Name"]][:16], {}])[1][r[c["Metric Name"]]] = r[c["Metric Value"]]
for i, (name, m) in seen.items():
    print(f"  {i:>3} {name:16} {m.get('gpu__time_duration.sum', '?'):>10} ns, SM cycles active (mean) "
          f"{m.get('sm__cycles_active.avg', '?')} of {m.get('sm__cycles_elapsed.max', '?')}")
PY
    done
    log "ncu source counters: fused gemm_mma on $t $prod $tr"
    OPTUNE_PARAMS="gemm_mma:FUSE=1" timeout 180 ncu --section SourceCounters --section WarpStateStats \
      --kernel-name gemm_mma --launch-skip 4 --launch-count 1 -f -o "/tmp/mma-fuse-$n" ./build/gpu/optune bench gemm \
      --gemm-product "$prod" --gemm-trans "$tr" --gemm-types "$t" --no-reference --runs 3 --copy-mib 64 --device cuda:0 \
      >>"$LOGS/mma-fuse.log" 2>&1 || STATUS=1
    timeout 120 ncu -i "/tmp/mma-fuse-$n.ncu-rep" --page source --csv --print-source sass \
      >"$OUT/mma-fuse-sass-$n.csv" 2>>"$LOGS/mma-fuse.log" || STATUS=1
    timeout 60 ncu -i "/tmp/mma-fuse-$n.ncu-rep" --page details >"$OUT/mma-fuse-details-$n.txt" 2>>"$LOGS/mma-fuse.log" ||
      STATUS=1
  done
  for fuse in 1 0; do
    OPTUNE_PARAMS="gemm_mma:FUSE=$fuse" BENCH_TAG=-mma-fuse$fuse BENCH_ON=cuda bench_both gemm --gemm-cases thin \
      --gemm-types f32,f16 --runs 20 "$@"
  done
}

# The thin rows (M = 16, 8, 1 along K; 16, 8 along N) with the compiler's
# register cap on every program (OPTUNE_BUILD_OPTIONS: NVRTC --maxrregcount,
# NVIDIA OpenCL -cl-nv-maxrregcount; THIN_REGS lists the caps, "none" for
# none), both back ends: the M = 16 programs take 246-254 registers, two
# groups of 128 per multiprocessor (gemm-thin-regs.txt in the logs).
thin_regs() {
  local ocl dev cap bo
  ocl=$(ocl_device)
  for cap in ${THIN_REGS:-none 128 96 168}; do
    for dev in cuda:0 "$ocl"; do
      [ -n "$dev" ] || continue
      bo=
      if [ "$cap" != none ]; then
        if [ "$dev" = cuda:0 ]; then bo="--maxrregcount=$cap"; else bo="-cl-nv-maxrregcount=$cap"; fi
      fi
      OPTUNE_BUILD_OPTIONS="$bo" ./build/gpu/optune bench gemm \
        --gemm-product "${THIN_PRODUCTS:-16,4096,4096,8,4096,4096,1,4096,4096,16,4096,4096,8,4096,4096}" \
        --gemm-trans "${THIN_TRANS:-NT,NT,NT,NN,NN}" --gemm-types f32 --device "$dev" "$@" 2>>"$LOGS/thin-regs.log" |
        tee -a "$LOGS/thin-regs.txt" | grep -E '^product' | sed "s|^|$dev regs<=$cap |" | tee -a "$OUT/summary.txt"
    done
  done
}

# BLAS level 2's general and symmetric products and updates (gemv, ger /
# geru, symv / hemv: the dense packs, the fused slices and the symv strips):
# their tests on both back ends, the blas2 family tuned for the bench's sizes
# (n > 2^22 elements) in f32, f64 and c32, then the level-2 bench rows on both.
blas2() {
  local ocl
  ocl=$(ocl_device)
  named_tests cuda:0 blas2-cuda 'test_blas2|test_blas2_errors'
  named_tests "$ocl" blas2-opencl 'test_blas2|test_blas2_errors|test_blas2.split'
  local -a TUNED=("blas2:f32:mv-cols/n>2^22,mv-rows/n>2^22,symv/n>2^22,rank/n>2^22:120"
                  "blas2:f64:mv-cols/n>2^22,mv-rows/n>2^22,symv/n>2^22,rank/n>2^22:60"
                  "blas2:c32:mv-cols/n>2^22,mv-rows/n>2^22,symv/n>2^22,rank/n>2^22:60")
  tune
  bench_both blas --only gemv-,gemv_t-,ger-,geru-,symv-,hemv- "$@"
}

# The BLAS of issue 20 after its merges: every BLAS test program on cuda:0
# and on the NVIDIA OpenCL device (BLAS_TESTS, a ctest regex), then (blas-bench)
# `optune bench blas` on both back ends.
BLAS_TESTS_DEFAULT='test_blas1|test_blas1_errors|test_blas2|test_blas2_errors|test_blas2.split|test_blas_tri|test_blas_tri_errors|test_blas_extra|test_blas_im2col|test_gemm_complex|test_symm|test_blas3|test_blas3_complex|test_blas3_errors'
blas_tests() {
  named_tests cuda:0 blas-all-cuda "${BLAS_TESTS:-$BLAS_TESTS_DEFAULT}"
  named_tests "$(ocl_device)" blas-all-opencl "${BLAS_TESTS:-$BLAS_TESTS_DEFAULT}"
}

# Kernel times of one `optune bench` selection on cuda:0 under Nsight Compute
# (one metric, gpu__time_duration), as CSV in $OUT/profile.csv, and a short
# table of the time per kernel name and grid. PROFILE_ARGS: the bench
# arguments (default: blas --only syrk --runs 1); PROFILE_KERNELS: a kernel
# name regex (default: every kernel).
profile() {
  local args=${PROFILE_ARGS:-blas --only syrk --runs 1}
  log "ncu: optune bench $args on cuda:0"
  # shellcheck disable=SC2086
  timeout 400 ncu --metrics gpu__time_duration.sum --csv ${PROFILE_KERNELS:+--kernel-name "regex:$PROFILE_KERNELS"} \
    ./build/gpu/optune bench $args --device cuda:0 >"$OUT/profile.csv" 2>"$LOGS/profile.log" || STATUS=1
  python3 - "$OUT/profile.csv" <<'PY' 2>&1 | tee -a "$OUT/summary.txt"
import csv, sys, collections
rows = [r for r in csv.reader(l for l in open(sys.argv[1]) if l.startswith('"'))]
if not rows:
    print("no kernels profiled"); sys.exit()
h = rows[0]; ki, gi, vi = h.index("Kernel Name"), h.index("Grid Size"), h.index("Metric Value")
agg = collections.OrderedDict()
for r in rows[1:]:
    key = (r[ki][:40], r[gi])
    n, t = agg.get(key, (0, 0.0))
    agg[key] = (n + 1, t + float(r[vi].replace(",", "")))
tot = sum(t for _, t in agg.values())
print(f"{'kernel':40} {'grid':>16} {'count':>6} {'total us':>10}")
for (k, g), (n, t) in sorted(agg.items(), key=lambda x: -x[1][1])[:40]:
    print(f"{k:40} {g:>16} {n:6d} {t/1000:10.1f}")
print(f"all kernels: {tot/1000:.1f} us")
PY
}

# ncu's detailed sections (speed of light, memory, occupancy, launch, warp
# states, instructions) for the first launch of a kernel in a bench:
# NCU_ITEMS is ';'-separated "KERNEL_REGEX@BENCH ARGS" (e.g.
# "conv_depthwise@conv --only 'dw3x3 nhwc f16' --no-reference"); one text
# report per item in $OUT/ncu-N.txt and its headline figures in summary.txt.
ncu_detail() {
  local i=0 item regex args
  IFS=';' read -r -a items <<<"${NCU_ITEMS:?NCU_ITEMS: KERNEL_REGEX@BENCH ARGS;...}"
  for item in "${items[@]}"; do
    i=$((i + 1)) regex=${item%%@*} args=${item#*@}
    log "ncu $i: $regex in optune bench $args"
    # (eval: ARGS may quote a case name with spaces.)
    eval "timeout 200 ncu --set detailed --kernel-name 'regex:$regex' --launch-count 1 \
      ./build/gpu/optune bench $args --device cuda:0" >"$OUT/ncu-$i.txt" 2>"$LOGS/ncu-$i.log" || STATUS=1
    echo "ncu $i: $item" | tee -a "$OUT/summary.txt"
    grep -E 'Duration|Memory Throughput|DRAM Throughput|L1/TEX Hit|L2 Hit|Compute \(SM\) Throughput|Registers Per|Achieved Occupancy|Theoretical Occupancy|Executed Ipc A|Local Memory|L1/TEX Cache Throughput' \
      "$OUT/ncu-$i.txt" | sed 's/^ */  /' | tee -a "$OUT/summary.txt"
  done
}

# The thin kernel's tensor-core path (gemm_thin TC 1 and 2, gemm_thin_tc.cl): its
# tests on cuda:0 (and under compute-sanitizer memcheck, racecheck and
# synccheck), then the thin products of THIN_TC_PRODUCTS with the transposes
# THIN_TC_TRANS (NT, x W^T: B read along K; NN: along N, or with N thin the
# thin operand stored K x M) under the shipped
# choice (with cuBLAS) and forced onto TC under each of THIN_TC_SETS
# (gemm_thin parameters, ';' between sets), then ncu's kernel times of the
# first set. Every step is time-boxed; the shipped choice's rows also go to
# $OUT/thin-tc-shipped.json.
thin_tc() {
  # Defaults: x W^T at 8 and 16 rows, then the thin operand stored K x M (N
  # thin with A row-major: NN; TN with N or M thin), which only TC 2 takes.
  local prods=${THIN_TC_PRODUCTS:-8,4096,4096,16,4096,4096,4096,8,4096,4096,16,4096,4096,16,4096,16,4096,4096}
  local trans=${THIN_TC_TRANS:-NT,NT,NN,NN,TN,TN}
  local base=TC=2,WGY=4,NJ=2,KU=2,SPLIT=4,FUSE=1 set cs
  local sets=${THIN_TC_SETS:-$base;TC=2,WGY=4,NJ=2,KU=4,SPLIT=4,FUSE=1;TC=2,WGY=4,NJ=1,KU=1,SPLIT=4,FUSE=1;TC=2,WGY=4,NJ=1,KU=2,SPLIT=4,FUSE=1;TC=2,WGY=2,NJ=2,KU=2,SPLIT=4,FUSE=1;TC=2,WGY=8,NJ=1,KU=2,SPLIT=2,FUSE=1}
  log "test_gemm_thin on cuda:0"
  OPTUNE_DEVICE=cuda:0 timeout 300 ./build/gpu/tests/test_gemm_thin --gtest_filter="${THIN_TC_FILTER:-*}" \
    >"$LOGS/thin-tc-tests.log" 2>&1 || STATUS=1
  grep -E '^\[  (PASSED|FAILED|SKIPPED) |Failure|error' "$LOGS/thin-tc-tests.log" | head -20 | tee -a "$OUT/summary.txt"
  cs=$(sanitizer)
  log "memcheck: test_gemm_thin TensorCores"
  OPTUNE_DEVICE=cuda:0 timeout 200 "$cs" --tool memcheck --report-api-errors all --leak-check no \
    ./build/gpu/tests/test_gemm_thin --gtest_filter='*TensorCores*' >"$LOGS/thin-tc-memcheck.log" 2>&1 || STATUS=1
  grep -E 'ERROR SUMMARY|PASSED|FAILED' "$LOGS/thin-tc-memcheck.log" | tail -3 | tee -a "$OUT/summary.txt"
  # The warps' fragments meet in local memory behind a barrier: racecheck and
  # synccheck too, unless THIN_TC_DEEP=0.
  if [ "${THIN_TC_DEEP:-1}" = 1 ]; then
    for tool in racecheck synccheck; do
      log "$tool: test_gemm_thin TensorCores"
      OPTUNE_DEVICE=cuda:0 timeout 240 "$cs" --tool $tool ./build/gpu/tests/test_gemm_thin \
        --gtest_filter='*TensorCores*' >"$LOGS/thin-tc-$tool.log" 2>&1 || STATUS=1
      grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' "$LOGS/thin-tc-$tool.log" | tail -3 | tee -a "$OUT/summary.txt"
    done
  fi
  log "thin products, shipped choice (cuda:0)"
  timeout 120 ./build/gpu/optune bench gemm --device cuda:0 --gemm-product "$prods" --gemm-trans "$trans" \
    --gemm-types "${THIN_TC_TYPES:-f32,f16}" --runs 20 --json "$OUT/thin-tc-shipped.json" "$@" 2>>"$LOGS/thin-tc.log" | tee -a "$LOGS/thin-tc-full.txt" |
    grep -E '[0-9]x[0-9]' | sed 's|^|shipped |' | tee -a "$OUT/thin-tc.txt" "$OUT/summary.txt"
  IFS=';' read -r -a list <<<"$sets"
  for set in "${list[@]}"; do
    OPTUNE_PARAMS="gemm_routine:KERNEL=4;gemm_thin:$set" timeout 120 ./build/gpu/optune bench gemm --device cuda:0 \
      --gemm-product "$prods" --gemm-trans "$trans" --gemm-types "${THIN_TC_TYPES:-f32,f16}" --runs 20 --no-reference "$@" \
      2>>"$LOGS/thin-tc.log" | tee -a "$LOGS/thin-tc-full.txt" | grep -E '[0-9]x[0-9]' | sed "s|^|$set |" |
      tee -a "$OUT/thin-tc.txt" "$OUT/summary.txt"
  done
  log "ncu: gemm_thin under ${list[0]}"
  OPTUNE_PARAMS="gemm_routine:KERNEL=4;gemm_thin:${list[0]}" timeout 150 /usr/local/cuda/bin/ncu \
    --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread \
    --kernel-name regex:'gemm_thin' --launch-skip 2 --launch-count 8 --csv ./build/gpu/optune bench gemm \
    --gemm-product "$prods" --gemm-trans "$trans" --gemm-types "${THIN_TC_TYPES:-f32,f16}" --no-reference --runs 2 \
    --copy-mib 64 --device cuda:0 >"$OUT/thin-tc-ncu.csv" 2>>"$LOGS/thin-tc.log" || STATUS=1
  python3 - "$OUT/thin-tc-ncu.csv" <<'PY' 2>&1 | tee -a "$OUT/summary.txt"
import csv, sys
rows = list(csv.reader(l for l in open(sys.argv[1]) if l.startswith('"')))
if len(rows) < 2:
    print("  no kernel profiled"); sys.exit()
h = rows[0]
ki, gi, mi, vi, ii = (h.index(x) for x in ("Kernel Name", "Grid Size", "Metric Name", "Metric Value", "ID"))
by = {}
for r in rows[1:]:
    by.setdefault((r[ii], r[ki][:24], r[gi]), {})[r[mi]] = r[vi]
for (i, k, g), m in by.items():
    print(f"  {i:>3} {k:24} {g:>14} " + " ".join(f"{n.split('__')[1][:22]}={v}" for n, v in sorted(m.items())))
PY
}

case "$WHAT" in
  build) build ;;
  ncu-detail) build && ncu_detail ;;
  python) build && python_step ;;
  test) build && tests ;;
  sanitize) build && sanitize ;;
  tune) build && tune ;;
  tune-items) build && tune_items ;;
  bench) build && bench "$@" ;;
  tune-bench) build && tune && bench "$@" ;;
  test-bench) build && tests && bench "$@" ;;
  thin-sweep) build && thin_sweep "$@" ;;
  kcontig-sweep) build && kcontig_sweep "$@" ;;
  gemm-bench) build && bench_both gemm "$@" ;;
  tune-pairs) build && tune_pairs "$@" ;;
  thin-tune) build && thin_tune "$@" ;;
  nk-sweep) build && nk_sweep "$@" ;;
  f64-tune) build && f64_tune "$@" ;;
  thin-profile) build && thin_profile ;;
  thin-fuse) build && thin_fuse "$@" ;;
  thin-regs) build && thin_regs "$@" ;;
  mma-fuse) build && mma_fuse "$@" ;;
  thin-tc) build && thin_tc "$@" ;;
  splitk-sweep) build && splitk_sweep "$@" ;;
  startup) build && startup "$@" ;;
  launch-cost) build && launch_cost ;;
  gemm-tc) build && gemm_tc "$@" ;;
  diag) build && launch_cost && python_step ;;
  tensor) build && tensor "$@" ;;
  conv) build && conv "$@" ;;
  conv-bench) build && find_cudnn && bench_both conv "$@" ;;
  params-sweep) build && params_sweep "$@" ;;
  ptx-loads) build && ptx_loads "$@" ;;
  timing) build && timing_modes "$@" ;;
  named) build && named_tests cuda:0 named-cuda "$NAMED_TESTS" && named_tests "$(ocl_device)" named-opencl "$NAMED_TESTS" ;;
  conv-tune) build && conv_tune ;;
  conv-implicit) build && conv_implicit "$@" ;;
  verify) build && verify ;;
  final-a) build && find_cudnn && named_tests cuda:0 final-cuda "${FINAL_TESTS:-$FINAL_TESTS_DEFAULT}" &&
    python_step && launch_cost ;;
  final-b) build && find_cudnn && named_tests "$(ocl_device)" final-opencl "${FINAL_TESTS:-$FINAL_TESTS_DEFAULT}" &&
    final_bench ;;
  verify-python) build && python_step && verify ;;
  blas) build && blas "$@" ;;
  blas-half) build && blas_half "$@" ;;
  blas-tests) build && blas_tests ;;
  blas-bench) build && bench_both blas --quiet "$@" ;;
  profile) build && profile "$@" ;;
  f64) build && f64 "$@" ;;
  f64-sweep) build && f64_sweep ;;
  host-blas) build && host_blas "$@" ;;
  host-stage) build && host_stage ;;
  blas-tri) build && blas_tri "$@" ;;
  blas-tri-sweep) build && blas_tri_sweep ;;
  blas3) build && blas3 "$@" ;;
  blas2) build && blas2 "$@" ;;
  im2col) build && im2col "$@" ;;
  all) build && tests && tune && bench "$@" ;;
  *) echo "unknown step $WHAT" >&2; exit 2 ;;
esac
[ $? -eq 0 ] || STATUS=1
log "done $(date -u +%FT%TZ) status $STATUS"
exit $STATUS
