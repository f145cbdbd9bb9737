#!/usr/bin/env bash
# Set-up, then configure and build a CMake preset (default: release, into
# build/release; scripts/test.sh builds the test preset into build/test).
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-release}
bash scripts/setup.sh
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" -j "$(nproc)"
