#!/usr/bin/env bash
# Longer fuzzing by hand: builds optune and tests/fuzz/capi_fuzz.cpp with
# clang-15 under libFuzzer, AddressSanitizer and UBSan (build/fuzz), then
# runs it on the default device (PoCL on a machine without a GPU).
#
#   usage: bash scripts/fuzz.sh [seconds (default 600)] [extra libFuzzer flags]
# Findings land in build/fuzz/findings/ (crash-*, the input that failed);
# replay one with build/fuzz/tests/fuzz_capi_libfuzzer FILE. The corpus
# grows in build/fuzz/corpus/. CI runs the same checks through the bounded
# CTest driver fuzz_capi (gcc, no libFuzzer).
# Needs clang-15, whose Debian package carries the libFuzzer runtime.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_TO_RUN=${1:-600}
shift || true
command -v clang++-15 >/dev/null || { echo "fuzz: clang-15 is missing (apt-get install clang-15)" >&2; exit 2; }
SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
cmake -S . -B build/fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang-15 -DCMAKE_CXX_COMPILER=clang++-15 \
  -DCMAKE_C_FLAGS="$SAN" -DCMAKE_CXX_FLAGS="$SAN -fsanitize=fuzzer-no-link" \
  -DCMAKE_EXE_LINKER_FLAGS="$SAN" -DOPTUNE_LIBFUZZER=ON >/dev/null
cmake --build build/fuzz --target fuzz_capi_libfuzzer -j "${JOBS:-2}"
mkdir -p build/fuzz/corpus build/fuzz/findings
# PoCL compiles each new kernel variant once; the cache keeps later runs fast.
export OPTUNE_CACHE_DIR=${OPTUNE_CACHE_DIR:-$PWD/build/fuzz/cache}
# Leaks of the drivers' own start-up are not optune's.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
exec build/fuzz/tests/fuzz_capi_libfuzzer build/fuzz/corpus -max_total_time="$SECONDS_TO_RUN" \
  -artifact_prefix=build/fuzz/findings/ -max_len=256 "$@"
