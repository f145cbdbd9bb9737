#!/usr/bin/env bash
# Command (a): set-up, build, then `optune bench` on the default device.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
mkdir -p bench/results
exec ./build/release/optune bench --json "bench/results/latest-$(hostname -s).json" "$@"
