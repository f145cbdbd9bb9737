#!/usr/bin/env bash
# Runs the pytest suite with the interpreter the module was built for:
#   run_pytest.sh PYTHON TESTS_DIR [pytest args...]
# CTest sets PYTHONPATH to the build tree's package (tests/CMakeLists.txt).
set -euo pipefail
py=$1 dir=$2
shift 2
if ! "$py" -c "import pytest" 2>/dev/null; then
  echo "pytest is not installed for $py: install Debian's python3-pytest" >&2
  exit 1
fi
exec "$py" -m pytest -q -p no:cacheprovider -rs "$dir" "$@"
