#!/usr/bin/env bash
# make bench: nicd's cost per collection cycle against node_exporter's infiniband collector on the
# same 64-device simulated tree, and nicd's peak memory. Method: docs/performance.md.
set -euo pipefail

build=${1:-build}
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$here/$build" && pwd)
work=$(mktemp -d /tmp/nicd-bench.XXXXXX)
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
root=$work/node
cycles=${NICD_BENCH_CYCLES:-50}
tick=$(getconf CLK_TCK)

"$build/tools/nicd-sim/nicd-sim" create "$root" --devices 64 >/dev/null
# On a running node the counter directories were made when the driver loaded; nicd does not keep
# a directory modified within the last second open (its files may still be being replaced), so
# let the new tree settle first.
sleep 2

echo "== collection cycle CPU time, 64 devices, $cycles cycles"
"$build/tests/bench/cycle_bench" "$root" "$build/plugins" "$cycles" >"$work/cycle.out"
"$build/tests/bench/cycle_bench" "$root" "" "$cycles" >"$work/cycle-ib.out"
value() { awk -v k="$1" '$1 == k {print $2}' "$2"; }
nicd_cpu=$(value nicd_cycle_cpu_seconds "$work/cycle.out")
nicd_default_cpu=$(value nicd_default_cycle_cpu_seconds "$work/cycle.out")
pma_every=$(value nicd_pma_every_cycles "$work/cycle.out")
nicd_ib_cpu=$(value nicd_cycle_cpu_seconds "$work/cycle-ib.out")

port=$((20000 + RANDOM % 20000))
while ss -ltn | grep -q ":$port "; do port=$((20000 + RANDOM % 20000)); done
prometheus-node-exporter --web.listen-address="127.0.0.1:$port" --path.sysfs="$root/sys" \
    --path.procfs="$root/proc" --collector.disable-defaults --collector.infiniband \
    --web.disable-exporter-metrics >"$work/ne.log" 2>&1 &
ne=$!
pids+=("$ne")
for _ in $(seq 50); do curl -fs "http://127.0.0.1:$port/metrics" >/dev/null 2>&1 && break; sleep 0.1; done
curl -fs "http://127.0.0.1:$port/metrics" >"$work/ne.out"
series=$(grep -c '^node_infiniband' "$work/ne.out" || true)
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
before=$(cpu_ticks "$ne")
for _ in $(seq "$cycles"); do curl -fs "http://127.0.0.1:$port/metrics" >/dev/null; done
after=$(cpu_ticks "$ne")
ne_cpu=$(awk -v a="$after" -v b="$before" -v t="$tick" -v n="$cycles" 'BEGIN {printf "%.6f", (a-b)/t/n}')

echo "nicd cycle:            ${nicd_cpu}s CPU (counters/, hw_counters/ and ethtool statistics)"
echo "nicd cycle at the default intervals (counters/ every ${pma_every}th cycle): ${nicd_default_cpu}s CPU"
echo "nicd, same files as node_exporter (no plugin): ${nicd_ib_cpu}s CPU"
echo "node_exporter scrape:  ${ne_cpu}s CPU ($series node_infiniband series)"
awk -v n="$nicd_cpu" -v e="$ne_cpu" 'BEGIN {
    if (e <= 0) { print "ratio: node_exporter CPU too small to measure"; exit }
    r = n / e; printf "ratio nicd/node_exporter: %.3f (target <= 0.200): %s\n", r, (r <= 0.2 ? "met" : "NOT met") }'
awk -v n="$nicd_default_cpu" -v e="$ne_cpu" 'BEGIN { if (e > 0) printf "ratio at the default intervals: %.3f\n", n / e }'
awk -v n="$nicd_ib_cpu" -v e="$ne_cpu" 'BEGIN { if (e > 0) printf "ratio for the same files: %.3f\n", n / e }'

echo "== nicd peak RSS, daemon on the same tree"
cat >"$work/nicd.conf" <<CONF
[daemon]
PluginDirectory=$build/plugins
PollIntervalMs=200
PmaIntervalMs=1000
CONF
"$build/daemon/nicd" --root "$root" --config "$work/nicd.conf" --no-dbus --log-level warn &
nicd=$!
pids+=("$nicd")
sleep 4
hwm=$(awk '/^VmHWM/ {print $2}' "/proc/$nicd/status")
anon=$(awk '/^RssAnon/ {print $2}' "/proc/$nicd/status")
file=$(awk '/^RssFile/ {print $2}' "/proc/$nicd/status")
kill "$nicd"
awk -v k="$hwm" 'BEGIN { printf "nicd VmHWM: %.1f MiB (target < 10 MiB): %s\n", k/1024, (k < 10240 ? "met" : "NOT met") }'
awk -v a="$anon" -v f="$file" 'BEGIN { printf "  resident between cycles: %.1f MiB private (heap, stacks), %.1f MiB file-backed (binary, plugin, libraries)\n", a/1024, f/1024 }'
# The floor: the same daemon on a node with one device.
"$build/tools/nicd-sim/nicd-sim" create "$work/one" --devices 1 >/dev/null
"$build/daemon/nicd" --root "$work/one" --config "$work/nicd.conf" --no-dbus --log-level warn &
one=$!
pids+=("$one")
sleep 3
awk '/^VmHWM/ {h=$2} /^RssAnon/ {a=$2} /^RssFile/ {f=$2} END {
    printf "nicd VmHWM with 1 device: %.1f MiB (%.1f MiB private, %.1f MiB file-backed)\n", h/1024, a/1024, f/1024 }' "/proc/$one/status"
kill "$one"

for extra in "$here"/scripts/bench.d/*.sh; do
    [ -e "$extra" ] || continue
    bash "$extra" "$build"
done
