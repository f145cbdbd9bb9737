#!/usr/bin/env bash
# On the GPU machine (H100, CUDA 13, NVIDIA OpenCL driver without an ICD
# file, no network, no Debian registry): unpack the Debian packages carried
# in .deb/, build with CUDA, run the gpu test label (CUDA) and the OpenCL
# suite on the NVIDIA OpenCL device, then `optune bench` on both back ends.
# Results and logs go to $OUT (at most 8 files come back).
#
#   usage: bash scripts/gpu/run.sh [all|build|test|bench] [extra bench args]
# Carry: .deb (the .deb files, see scripts/gpu/fetch_debs.sh).
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

log() { echo "== $*" | tee -a "$OUT/summary.txt"; }

build() {
  log "build $(date -u +%FT%TZ)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv | tee -a "$OUT/summary.txt"
  cmake -S . -B build/gpu -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_PREFIX_PATH="$DEPS/usr" -DCMAKE_LIBRARY_PATH="$DEPS/$ARCH_LIB" \
    -DOpenCL_INCLUDE_DIR="$DEPS/usr/include" -DOpenCL_LIBRARY="$DEPS/$ARCH_LIB/libOpenCL.so" \
    -DSQLite3_INCLUDE_DIR="$DEPS/usr/include" -DSQLite3_LIBRARY="$DEPS/$ARCH_LIB/libsqlite3.so" \
    >"$OUT/build.log" 2>&1 &&
    cmake --build build/gpu -j 16 >>"$OUT/build.log" 2>&1
  local rc=$?
  tail -5 "$OUT/build.log"
  log "build rc=$rc"
  return $rc
}

tests() {
  ./build/gpu/optune info >"$OUT/info.txt" 2>&1
  ./build/gpu/optune info --json >"$OUT/info.json" 2>>"$OUT/info.txt"
  grep -E '^(backend|opencl:|cuda:)' "$OUT/info.txt" | tee -a "$OUT/summary.txt"
  local ocl
  ocl=$(python3 -c 'import json,sys; d=[x["spec"] for x in json.load(open(sys.argv[1])) if x["backend"]=="opencl" and x["type"]=="gpu"]; print(d[0] if d else "")' "$OUT/info.json")
  log "ctest -L gpu (CUDA)"
  (cd build/gpu && ctest -L gpu --output-on-failure -j 4 --timeout 600) >"$OUT/tests.log" 2>&1
  grep -E 'tests passed|tests failed|Failed|\*\*\*' "$OUT/tests.log" | tail -15 | tee -a "$OUT/summary.txt"
  if [ -n "$ocl" ]; then
    log "ctest -LE gpu|oclgrind on NVIDIA OpenCL ($ocl)"
    (cd build/gpu && OPTUNE_DEVICE=$ocl ctest -LE 'gpu|oclgrind' --output-on-failure -j 4 --timeout 600) \
      >>"$OUT/tests.log" 2>&1
    grep -E 'tests passed|tests failed|Failed|\*\*\*' "$OUT/tests.log" | tail -15 | tee -a "$OUT/summary.txt"
  fi
}

bench() {
  local ocl
  ocl=$(python3 -c 'import json,sys; d=[x["spec"] for x in json.load(open(sys.argv[1])) if x["backend"]=="opencl" and x["type"]=="gpu"]; print(d[0] if d else "")' "$OUT/info.json" 2>/dev/null)
  log "bench cuda:0"
  ./build/gpu/optune bench --device cuda:0 --json "$OUT/bench-cuda.json" "$@" 2>>"$OUT/bench.log" | tee -a "$OUT/summary.txt"
  if [ -n "$ocl" ]; then
    log "bench $ocl (NVIDIA OpenCL)"
    ./build/gpu/optune bench --device "$ocl" --json "$OUT/bench-opencl.json" "$@" 2>>"$OUT/bench.log" | tee -a "$OUT/summary.txt"
  fi
}

case "$WHAT" in
  build) build ;;
  test) build && tests ;;
  bench) build && { [ -f "$OUT/info.json" ] || ./build/gpu/optune info --json >"$OUT/info.json"; } && bench "$@" ;;
  all) build && tests && bench "$@" ;;
  *) echo "unknown step $WHAT" >&2; exit 2 ;;
esac
log "done $(date -u +%FT%TZ)"
