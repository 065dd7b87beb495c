#!/usr/bin/env bash
# make bench: nicd's cost per collection cycle against the read floor and node_exporter, its
# memory, and how both grow with the number of devices; one table of the targets with a pass/fail
# word; then the benchmarks of later stages (scripts/bench.d/*.sh). The node is the realistic
# one (nicd-sim create: ConnectX-7 netdevs of 64 channels, ~6,900 ethtool statistics each).
# node_exporter's infiniband collector reads counters/ and hw_counters/ only, so nicd and the
# floor are measured twice: on the whole node, and on the same node without the ethtool captures
# (the files node_exporter reads, and the port and netdev state). Method: docs/performance.md.
#
#   scripts/bench.sh [BUILD_DIR]   (NICD_BENCH_CYCLES=N: cycles measured, default 15;
#                                   NICD_BENCH_SCALE=0: leave out the 32- and 512-device runs;
#                                   NICD_BENCH_EXTRAS=0: leave out scripts/bench.d;
#                                   NICD_BENCH_PROFILE=0: leave out where a cycle goes)
set -euo pipefail

build=${1:-build}
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/scripts/lib/private_bus.sh"
. "$here/scripts/lib/jobs.sh"
. "$here/scripts/lib/node_exporter.sh" # and lib/freeport.sh, lib/cpu_ns.sh
build=$(cd "$here/$build" 2>/dev/null || cd "$build" && pwd)
cycles=${NICD_BENCH_CYCLES:-15}
jobs_work_dir nicd-bench
sim=$build/tools/nicd-sim/nicd-sim
floor_bin=$build/tests/bench/read_floor_bench
dbus_bin=$build/tests/bench/dbus_bench
for b in "$build/daemon/nicd" "$sim" "$floor_bin" "$dbus_bin" "$build/plugins/nicd-plugin-mlx5.so"; do
    [ -e "$b" ] || { echo "bench: $b is not built (make bench builds it)" >&2; exit 1; }
done
for tool in dbus-daemon prometheus-node-exporter curl prlimit; do
    command -v "$tool" >/dev/null || { echo "bench: $tool is not installed (scripts/install-deps.sh)" >&2; exit 1; }
done

status_kib() { awk -v k="$2:" '$1 == k {print $2}' "/proc/$1/status"; }
cycles_in() { awk '$1 == "nicd_cycles_total" {print $2}' "$1" 2>/dev/null || true; }

# A private system bus: nicd runs as it does under systemd, publishing its objects.
bus_dir=$work/bus
mkdir -p "$bus_dir"
private_bus_conf "unix:path=$bus_dir/socket" >"$bus_dir/bus.conf"
job dbus-daemon --nofork --nopidfile --config-file="$bus_dir/bus.conf" >"$work/dbus.log" 2>&1
for _ in $(seq 100); do [ -S "$bus_dir/socket" ] && break; sleep 0.1; done
bus="unix:path=$bus_dir/socket"

# make_node N: a simulated node of N ConnectX-7 RoCE PFs, left to settle (on a running node the
# counter directories date from the driver's load; nicd keeps no counter file open in a directory
# changed within the last second, as the simulator's trees are while being written).
make_node() {
    "$sim" create "$work/node$1" --devices "$1" >/dev/null
    sleep 2
}
# start_nicd N: nicd on node N, every source every cycle at a 1 s pace, signals at their default
# (slow) interval, on the bus, with the file limits systemd gives a service (1024:524288, or the
# hard limit this shell has where it is lower). Sets nicd_pid and textfile.
nofile_hard=$(ulimit -Hn)
[ "$nofile_hard" = unlimited ] && nofile_hard=524288
[ "$nofile_hard" -gt 524288 ] && nofile_hard=524288
[ "$nofile_hard" -ge 524288 ] ||
    echo "bench: note: the hard RLIMIT_NOFILE here is $nofile_hard, not systemd's 524288: nicd keeps at most a quarter of it open per module, so on big nodes it opens the rest of its counter files for every read"
start_nicd() {
    cat >"$work/nicd$1.conf" <<CONF
[daemon]
PollIntervalMs=1000
PmaIntervalMs=1000
CONF
    job prlimit --nofile=1024:"$nofile_hard" "$build/daemon/nicd" --root "$work/node$1" --config "$work/nicd$1.conf" \
        --plugin-directory "$build/plugins" --bus "$bus" --log-level warn >"$work/nicd$1.log" 2>&1
    nicd_pid=$job_pid
    textfile=$work/node$1/var/lib/prometheus/node-exporter/nicd.prom
    for _ in $(seq 300); do [ -n "$(cycles_in "$textfile")" ] && break; sleep 0.1; done
    [ -n "$(cycles_in "$textfile")" ] || { echo "bench: nicd wrote no textfile on $1 devices: $(cat "$work/nicd$1.log")" >&2; exit 1; }
}
# measure PID TEXTFILE: CPU ns of PID over $cycles of its cycles (from nicd_cycles_total); sets
# m_cpu (ns per cycle) and m_cycles.
measure_nicd() {
    local c0 c1 t0 t1
    c0=$(cycles_in "$2")
    while [ "$(cycles_in "$2")" = "$c0" ]; do sleep 0.02; done # at a cycle's end
    c0=$(cycles_in "$2")
    t0=$(cpu_ns "$1")
    while [ "$(($(cycles_in "$2") - c0))" -lt "$cycles" ]; do sleep 0.05; done
    t1=$(cpu_ns "$1")
    c1=$(cycles_in "$2")
    m_cycles=$((c1 - c0))
    m_cpu=$(((t1 - t0) / m_cycles))
}
ms() { awk -v ns="$1" 'BEGIN { printf "%.2f", ns / 1e6 }'; }

# ---------------------------------------------------------------------------------------------
echo "== 64 devices: nicd, node_exporter (scraped once a cycle) and the read floor, side by side, a cycle every second, $cycles cycles"
make_node 64
node=$work/node64
job "$floor_bin" "$node" 1000 >"$work/floor.out"
floor_pid=$job_pid
port=$(freeport)
job prometheus-node-exporter --web.listen-address="127.0.0.1:$port" --path.sysfs="$node/sys" \
    --path.procfs="$node/proc" --collector.disable-defaults --collector.infiniband \
    --web.disable-exporter-metrics >"$work/ne.log" 2>&1
ne_pid=$job_pid
for _ in $(seq 50); do curl -fs "http://127.0.0.1:$port/metrics" >/dev/null 2>&1 && break; sleep 0.1; done
scrape_every_second() { while :; do curl -fs "http://127.0.0.1:$port/metrics" >/dev/null; sleep 1; done; }
job scrape_every_second
scraper_pid=$job_pid
start_nicd 64
sleep 3 # past start-up: the first slow signal reads, the first provisioning round
ne_t0=$(cpu_ns "$ne_pid")
floor_t0=$(cpu_ns "$floor_pid")
t_start=$(date +%s.%N)
measure_nicd "$nicd_pid" "$textfile"
nicd_cpu=$m_cpu
nicd_cycles=$m_cycles
seconds=$(awk -v a="$t_start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
ne_cpu=$(awk -v a="$ne_t0" -v b="$(cpu_ns "$ne_pid")" -v s="$seconds" 'BEGIN { printf "%.0f", (b - a) / s }')
floor_cpu=$(awk -v a="$floor_t0" -v b="$(cpu_ns "$floor_pid")" -v s="$seconds" 'BEGIN { printf "%.0f", (b - a) / s }')
anon64=$(status_kib "$nicd_pid" RssAnon)
hwm64=$(status_kib "$nicd_pid" VmHWM)
series=$(grep -c '^nicd_' "$textfile" || true)
ne_series=$(curl -fs "http://127.0.0.1:$port/metrics" | grep -c '^node_infiniband' || true)
job_stop "$scraper_pid" "$ne_pid" "$floor_pid"
echo "nicd:          $(ms "$nicd_cpu") ms CPU per cycle ($nicd_cycles cycles, $series series)"
echo "node_exporter: $(ms "$ne_cpu") ms CPU per scrape ($ne_series node_infiniband series)"
echo "read floor:    $(ms "$floor_cpu") ms CPU per cycle ($(awk '$1 == "files" {print $2}' "$work/floor.out") files, $(awk '$1 == "ethtool_files" {print $2}' "$work/floor.out") of them ethtool captures, $(awk '$1 == "bytes" {printf "%.1f", $2 / 1048576}' "$work/floor.out") MiB, one pread each)"
echo "nicd memory:   RssAnon $anon64 KiB, VmHWM $hwm64 KiB"
if [ "${NICD_BENCH_PROFILE:-1}" = 1 ]; then
    bash "$here/scripts/bench-profile.sh" "$nicd_pid" "$textfile" "$work" || echo "bench: no profile: see above"
fi
job_stop "$nicd_pid"
cp "$textfile" "$work/nicd64.prom"
textfile_scrape_ms "$work/nicd64.prom" 40
ne_textfile_ms=$scrape_ms
echo "node_exporter: $ne_textfile_ms ms CPU per scrape of nicd's textfile ($series series, its textfile collector alone)"

echo "== the same node without the ethtool captures (what node_exporter reads, and the port and netdev state): nicd and the read floor, $cycles cycles"
mv "$node/run/nicd-sim/ethtool" "$work/ethtool-aside"
job "$floor_bin" "$node" 1000 >"$work/floor-noeth.out"
floor_pid=$job_pid
start_nicd 64
sleep 3
floor_t0=$(cpu_ns "$floor_pid")
t_start=$(date +%s.%N)
measure_nicd "$nicd_pid" "$textfile"
nicd_noeth_cpu=$m_cpu
seconds=$(awk -v a="$t_start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
floor_noeth_cpu=$(awk -v a="$floor_t0" -v b="$(cpu_ns "$floor_pid")" -v s="$seconds" 'BEGIN { printf "%.0f", (b - a) / s }')
series_noeth=$(grep -c '^nicd_' "$textfile" || true)
job_stop "$nicd_pid" "$floor_pid"
echo "nicd:          $(ms "$nicd_noeth_cpu") ms CPU per cycle ($m_cycles cycles, $series_noeth series)"
echo "read floor:    $(ms "$floor_noeth_cpu") ms CPU per cycle ($(awk '$1 == "files" {print $2}' "$work/floor-noeth.out") files)"
echo "the ethtool part: nicd $(ms "$((nicd_cpu - nicd_noeth_cpu))") ms, the floor $(ms "$((floor_cpu - floor_noeth_cpu))") ms per cycle"

echo "== D-Bus, 64 devices (its own node and nicd, 200 calls each)"
{ "$dbus_bin" "$build/daemon/nicd" "$build/plugins" 200 || echo "bench: dbus_bench failed"; } | tee "$work/dbus.out"
gmo_ms=$(awk '/^GetManagedObjects \(64 devices/ { for (i = 1; i <= NF; ++i) if ($i == "median") print $(i + 1) }' "$work/dbus.out")
gmo_cpu_ms=$(awk '/^GetManagedObjects: nicd.s CPU per call/ { print $6 }' "$work/dbus.out")

scale=${NICD_BENCH_SCALE:-1}
if [ "$scale" = 1 ]; then
    echo "== from 32 to 512 devices: nicd alone, $cycles cycles each"
    rm -rf "$node" "$work/ethtool-aside"
    for n in 32 512; do
        make_node "$n"
        start_nicd "$n"
        sleep 3
        measure_nicd "$nicd_pid" "$textfile"
        declare "cpu$n=$m_cpu"
        declare "anon$n=$(status_kib "$nicd_pid" RssAnon)"
        job_stop "$nicd_pid"
        rm -rf "$work/node$n"
        echo "$n devices: $(ms "$m_cpu") ms CPU per cycle, $(awk -v c="$m_cpu" -v n="$n" 'BEGIN { printf "%.1f", c / n / 1000 }') µs per device; RssAnon $(eval echo "\$anon$n") KiB"
    done
fi

# ---------------------------------------------------------------------------------------------
verdict() { awk -v v="$1" -v t="$2" -v op="$3" 'BEGIN { ok = (op == ">=") ? v >= t : (op == "<") ? v < t : v <= t; print ok ? "pass" : "FAIL" }'; }
row() { printf '| %-62s | %-13s | %-6s | %-4s |\n' "$1" "$2" "$3" "$4"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
echo "== targets (64 devices unless said; $(nproc) CPUs, $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg))"
row "measure" "value" "target" ""
row "--------------------------------------------------------------" "-------------" "------" "----"
row "nicd, ms CPU per cycle: every source / without ethtool" "$(ms "$nicd_cpu") / $(ms "$nicd_noeth_cpu")" "" ""
row "read floor, ms CPU per cycle: every file / without ethtool" "$(ms "$floor_cpu") / $(ms "$floor_noeth_cpu")" "" ""
row "node_exporter, ms CPU per scrape: infiniband / nicd's textfile" "$(ms "$ne_cpu") / $ne_textfile_ms" "" ""
r=$(ratio "$ne_cpu" "$nicd_noeth_cpu")
row "node_exporter / nicd, the same files (no ethtool)" "$r" ">= 5" "$(verdict "$r" 5 '>=')"
r=$(awk -v a="$ne_cpu" -v b="$nicd_noeth_cpu" -v t="$ne_textfile_ms" 'BEGIN { printf "%.2f", a / (b + t * 1e6) }')
row "node_exporter / (nicd + a scrape of its textfile), no ethtool" "$r" ">= 5" "$(verdict "$r" 5 '>=')"
r=$(ratio "$ne_cpu" "$nicd_cpu")
row "node_exporter / nicd, every source (nicd reads more)" "$r" "" ""
r=$(ratio "$nicd_cpu" "$floor_cpu")
row "nicd / read floor, every source" "$r" "<= 1.5" "$(verdict "$r" 1.5 '<=')"
r=$(ratio "$nicd_noeth_cpu" "$floor_noeth_cpu")
row "nicd / read floor, without ethtool" "$r" "<= 1.5" "$(verdict "$r" 1.5 '<=')"
r=$(awk -v k="$anon64" 'BEGIN { printf "%.2f", k / 1024 }')
row "nicd RssAnon, MiB" "$r" "<= 4" "$(verdict "$r" 4 '<=')"
r=$(awk -v k="$hwm64" 'BEGIN { printf "%.2f", k / 1024 }')
row "nicd VmHWM, MiB" "$r" "<= 10" "$(verdict "$r" 10 '<=')"
if [ "$scale" = 1 ]; then
    r=$(awk -v a="$cpu512" -v b="$cpu32" 'BEGIN { printf "%.2f", (a / 512) / (b / 32) }')
    row "CPU per device per cycle, 512 / 32 devices" "$r" "<= 1.2" "$(verdict "$r" 1.2 '<=')"
    r=$(awk -v a="$anon512" -v b="$anon32" 'BEGIN { printf "%.1f", (a - b) / 480 }')
    row "private memory per added device (32 -> 512), KiB" "$r" "<= 16" "$(verdict "$r" 16 '<=')"
fi
if [ -n "$gmo_ms" ]; then
    row "GetManagedObjects, median ms (reply not unpacked)" "$gmo_ms" "< 2" "$(verdict "$gmo_ms" 2 '<')"
    row "GetManagedObjects, nicd's CPU per call, ms (load-independent)" "${gmo_cpu_ms:-none}" "" ""
else
    row "GetManagedObjects, median ms" "none" "< 2" "FAIL"
fi

if [ "${NICD_BENCH_EXTRAS:-1}" = 1 ]; then
    for extra in "$here"/scripts/bench.d/*.sh; do
        [ -e "$extra" ] || continue
        bash "$extra" "$build"
    done
fi
