#!/usr/bin/env bash
# Command (b): set-up, build, then every test that needs no GPU: the whole
# suite on PoCL, the oclgrind label, and the CUDA compile checks (NVRTC, no
# driver). The gpu label runs on the GPU machine through scripts/gpu/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
bash scripts/check_kernels.sh
cd build/release
ctest -LE gpu --output-on-failure -j "$(nproc)" --timeout 1200
