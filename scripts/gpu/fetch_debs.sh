#!/usr/bin/env bash
# Here (Debian 12, registry reachable): download the Debian packages the GPU
# machine needs into .deb/ (ignored by git; pass it in the device run's carry).
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p .deb
cd .deb
apt-get download ocl-icd-libopencl1 ocl-icd-opencl-dev opencl-c-headers opencl-clhpp-headers \
  libsqlite3-0 libsqlite3-dev nlohmann-json3-dev libcli11-dev libgtest-dev libgmock-dev \
  libclblast1 libclblast-dev clblast-utils \
  pybind11-dev libdlpack-dev \
  libblas3 libblas-dev libblas-test libgfortran5 libquadmath0 libopenblas0-pthread
mkdir -p ../.git/info
grep -qx '/.deb/' ../.git/info/exclude 2>/dev/null || echo '/.deb/' >>../.git/info/exclude
