#!/usr/bin/env bash
# Installs what optune needs from Debian's packages when run as root on
# Debian; otherwise prints the exact packages to install. Idempotent: it asks
# apt for nothing when everything is already there.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build git pkg-config
  ocl-icd-opencl-dev opencl-headers pocl-opencl-icd clinfo
  libsqlite3-dev nlohmann-json3-dev libcli11-dev
  googletest libgtest-dev libbenchmark-dev
  oclgrind clang-15
  libclblast-dev
  gfortran libblas-dev libblas-test
  python3-matplotlib
  python3-dev python3-numpy python3-pybind11 python3-pytest libdlpack-dev
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all packages present"
  exit 0
fi

if [ "$(id -u)" = "0" ] && [ -f /etc/debian_version ] && command -v apt-get >/dev/null; then
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  echo "setup: done"
else
  echo "setup: missing packages; install them with:" >&2
  echo "  sudo apt-get install ${missing[*]}" >&2
  exit 1
fi
