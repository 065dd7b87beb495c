#!/usr/bin/env bash
# Health engine benchmarks: kernel-line classification throughput and link-event latency.
set -euo pipefail
build=$1
echo "== kernel log classification"
"$build/tests/bench/kernel_classify_bench"
echo "== link down (rtnetlink) to textfile"
if [ "$(id -u)" = 0 ]; then
    "$build/tests/bench/link_latency_bench" "$build" 20
else
    echo "skipped: needs root for ip netns"
fi
