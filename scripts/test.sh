#!/usr/bin/env bash
# Command (b): set-up, build, then every test that needs no GPU: the whole
# suite on PoCL, the oclgrind label, and the CUDA compile checks (NVRTC, no
# driver; the embedded cubins' build compiles every operator program for the
# H100 and A100 profiles). It builds the test preset into build/test: a
# release build whose cubins compile at NVRTC's fastest level as a check and
# are not embedded (OPTUNE_EMBED_CUBINS_QUICK), which keeps CI's 2 cores within
# the house's 20 minutes; (a) builds build/release, the build to time. The gpu label,
# and the nvrtc label's longer compile checks, run on the GPU machine through
# scripts/gpu/ (or `ctest -L nvrtc` by hand).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh test
bash scripts/check_kernels.sh
cd build/test
ctest -LE "gpu|nvrtc" --output-on-failure -j "$(nproc)" --timeout 1200
