#!/usr/bin/env bash
# One GoogleTest suite as one ctest test (cmake/GTestSuites.cmake): runs BINARY with
# --gtest_filter=SUITE.*, passes its output and exit status on, and exits 77 (ctest's "skipped")
# when it passed without running a test (every test of the suite skipped itself).
set -uo pipefail
binary=$1 suite=$2
out=$(mktemp "${TMPDIR:-/tmp}/nicd-gtest-suite.XXXXXX") || exit 1
trap 'rm -f "$out"' EXIT
"$binary" "--gtest_filter=$suite.*" 2>&1 | tee "$out"
rc=${PIPESTATUS[0]}
if [ "$rc" -eq 0 ] && grep -q '^\[  PASSED  \] 0 tests' "$out"; then
    exit 77
fi
exit "$rc"
