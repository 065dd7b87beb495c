#!/usr/bin/env bash
# What nicd's knob writer costs per knob write, against the same write in nicd's own process, and
# its memory. Method: docs/security.md.
set -euo pipefail
build=$1
echo "== the knob writer: a knob write through it and in nicd's process; its memory"
"$build/tests/bench/knob_writer_bench" 20000
