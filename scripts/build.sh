#!/usr/bin/env bash
# Set-up, then configure and build the release preset in build/release.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)"
