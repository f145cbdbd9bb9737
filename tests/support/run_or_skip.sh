#!/usr/bin/env bash
# Runs a test command; when it fails with output that matches REGEX (the
# command's own way of saying that something it needs is missing), the test
# is skipped (exit 77, SKIP_RETURN_CODE) and the matching lines are written to
# REASONS_DIR/NAME.txt, which CTest prints after the run (CTestCustom.cmake:
# a skip's reason shows in plain `ctest` output, not only with -V).
#   run_or_skip.sh NAME REASONS_DIR REGEX command args...
set -uo pipefail
name=$1 reasons=$2 regex=$3
shift 3
out=$("$@" 2>&1)
rc=$?
printf '%s\n' "$out"
if [ $rc -ne 0 ] && reason=$(printf '%s\n' "$out" | grep -E -- "$regex"); then
  mkdir -p "$reasons"
  printf '%s\n' "$reason" >"$reasons/$name.txt"
  exit 77
fi
exit $rc
