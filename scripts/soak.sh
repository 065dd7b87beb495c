#!/usr/bin/env bash
# make soak: nicd under load for a long time, on a simulated 64-device node, and what it held.
#
#   scripts/soak.sh [--seconds N] [--devices N] [--clients N] [--journal-rate N] [--idle N]
#                   [--no-faults] [--out DIR] [--build DIR] [--seed N]
#
# The harness is a Python program (standard library only): scripts/soak/__main__.py says what it
# runs and what it asserts; its statistics and assertions are unit-tested (tests/soak).
exec python3 "$(dirname "$0")/soak" "$@"
