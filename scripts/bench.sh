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

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
value() { awk -v k="$1" '$1 == k {print $2}' "$2"; }
ratio() { awk -v n="$2" -v e="$3" -v what="$1" -v target="${4:-}" 'BEGIN {
    if (e <= 0) { printf "ratio %s: node_exporter CPU too small to measure\n", what; exit }
    if (n <= 0) { printf "ratio %s: nicd CPU not measured\n", what; exit }
    r = n / e; printf "ratio %s: %.3f", what, r
    if (target != "") printf " (target <= 0.200): %s", (r <= 0.2 ? "met" : "NOT met")
    printf "\n" }'; }

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
# CPU per scrape over $cycles scrapes, `pause` seconds apart (0: back to back).
ne_scrape_cpu() {
    local before after
    before=$(cpu_ticks "$ne")
    for _ in $(seq "$cycles"); do
        curl -fs "http://127.0.0.1:$port/metrics" >/dev/null
        sleep "$1"
    done
    after=$(cpu_ticks "$ne")
    awk -v a="$after" -v b="$before" -v t="$tick" -v n="$cycles" 'BEGIN {printf "%.6f", (a-b)/t/n}'
}

echo "== 1. one cycle in a loop, $cycles cycles back to back (hot caches), 64 devices"
"$build/tests/bench/cycle_bench" "$root" "$build/plugins" "$cycles" >"$work/cycle.out"
"$build/tests/bench/cycle_bench" "$root" "" "$cycles" >"$work/cycle-ib.out"
nicd_cpu=$(value nicd_cycle_cpu_seconds "$work/cycle.out")
nicd_default_cpu=$(value nicd_default_cycle_cpu_seconds "$work/cycle.out")
pma_every=$(value nicd_pma_every_cycles "$work/cycle.out")
nicd_ib_cpu=$(value nicd_cycle_cpu_seconds "$work/cycle-ib.out")
ne_cpu=$(ne_scrape_cpu 0)
echo "nicd collect + render, every source:          ${nicd_cpu}s CPU"
echo "nicd, counters/ every ${pma_every}th cycle (the default): ${nicd_default_cpu}s CPU"
echo "nicd, the files node_exporter reads (no plugin): ${nicd_ib_cpu}s CPU"
echo "node_exporter scrape:                          ${ne_cpu}s CPU ($series node_infiniband series)"
ratio "every source" "$nicd_cpu" "$ne_cpu" target
ratio "for the same files" "$nicd_ib_cpu" "$ne_cpu"

# The whole daemon as it runs (collection, health rules, the textfile written and synced, the
# state file), polling every 200 ms with counters/ at the default ratio of the two intervals:
# CPU per cycle from /proc/PID/stat and nicd_cycles_total over 10 s. node_exporter scraped at the
# same pace: with 200 ms between runs neither program finds its data in the CPU caches.
echo "== 2. the daemon, a cycle every 200 ms, against node_exporter scraped every 200 ms"
cat >"$work/nicd.conf" <<CONF
[daemon]
PluginDirectory=$build/plugins
PollIntervalMs=200
PmaIntervalMs=$((200 * pma_every))
CONF
"$build/daemon/nicd" --root "$root" --config "$work/nicd.conf" --no-dbus --log-level warn &
nicd=$!
pids+=("$nicd")
# The textfile's default path, inside --root.
cycles_now() { awk '$1 == "nicd_cycles_total" {print $2}' "$root/var/lib/prometheus/node-exporter/nicd.prom" 2>/dev/null || true; }
sleep 3
c0=$(cycles_now)
t0=$(cpu_ticks "$nicd")
sleep 10
c1=$(cycles_now)
t1=$(cpu_ticks "$nicd")
hwm=$(awk '/^VmHWM/ {print $2}' "/proc/$nicd/status")
anon=$(awk '/^RssAnon/ {print $2}' "/proc/$nicd/status")
file=$(awk '/^RssFile/ {print $2}' "/proc/$nicd/status")
kill "$nicd"
wait "$nicd" 2>/dev/null || true
if [ -z "$c0" ] || [ -z "$c1" ] || [ "$((c1 - c0))" -le 0 ]; then
    echo "bench: the daemon wrote no cycles to $root/var/lib/prometheus/node-exporter/nicd.prom (nicd_cycles_total '$c0' -> '$c1')" >&2
    exit 1
fi
daemon_cpu=$(awk -v a="$t1" -v b="$t0" -v t="$tick" -v n="$((c1 - c0))" 'BEGIN { printf "%.6f", (a-b)/t/n }')
ne_paced_cpu=$(ne_scrape_cpu 0.2)
echo "nicd daemon, per cycle ($((c1 - c0)) cycles in 10 s): ${daemon_cpu}s CPU"
echo "node_exporter, per scrape:             ${ne_paced_cpu}s CPU"
ratio "daemon/node_exporter" "$daemon_cpu" "$ne_paced_cpu" target

echo "== nicd peak RSS, the daemon run above"
awk -v k="$hwm" 'BEGIN { printf "nicd VmHWM: %.1f MiB (target < 10 MiB): %s\n", k/1024, (k < 10240 ? "met" : "NOT met") }'
awk -v a="$anon" -v f="$file" 'BEGIN { printf "  resident at the end: %.1f MiB private (heap, stacks), %.1f MiB file-backed (binary, plugin, libraries)\n", a/1024, f/1024 }'
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
