#!/usr/bin/env bash
# The textfile on a realistic node: 8 RoCE ports whose netdevs print what a ConnectX-7 with 64
# channels prints (nicd-sim create --devices 8). For each [textfile] Counters= (default, all,
# none): the daemon's series and bytes per port once it provisioned and read every signal twice,
# its CPU per cycle (a cycle a second), and node_exporter's CPU per scrape of that file (its
# textfile collector alone). Target: default at most 60 series a port. Method:
# docs/performance.md.
set -euo pipefail
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/scripts/lib/jobs.sh"
. "$here/scripts/lib/node_exporter.sh" # and lib/cpu_ns.sh
jobs_work_dir nicd-bench-volume
ports=8
root=$work/node
textfile=$root/var/lib/prometheus/node-exporter/nicd.prom
# A fresh node for each run: each run provisions QoS as on a booting node.
make_node() {
    "$build/tools/nicd-sim/nicd-sim" create "$root" --devices "$ports" --force >/dev/null
    "$build/tools/nicd-sim/nicd-sim" tick "$root" --seconds 2
    sleep 2 # let the new tree settle (see bench.sh)
}

cycles_now() { awk '$1 == "nicd_cycles_total" {print $2}' "$textfile" 2>/dev/null || true; }
per() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", a / b }'; }

# run COUNTERS: the daemon until the file holds a QoS apply round and the pre-FEC BER, then 15
# cycles; sets series, bytes, cycle_ms; copies the file to $work/COUNTERS.prom.
run() {
    make_node
    printf '[daemon]\nPollIntervalMs=1000\nPmaIntervalMs=1000\n[signals]\nIntervalSec=1\n[textfile]\nCounters=%s\n' "$1" >"$work/nicd.conf"
    job "$build/daemon/nicd" --root "$root" --config "$work/nicd.conf" --plugin-directory "$build/plugins" \
        --no-dbus --log-level warn >"$work/nicd.log" 2>&1
    local pid=$job_pid c0 t0 c1 t1
    for _ in $(seq 300); do
        grep -q '^nicd_fec_pre_ber_ratio' "$textfile" 2>/dev/null && grep -q '^nicd_qos_rounds_total{kind="apply"}' "$textfile" && break
        sleep 0.1
    done
    grep -q '^nicd_qos_rounds_total{kind="apply"}' "$textfile" ||
        { echo "bench: nicd provisioned nothing on the fresh node: $(cat "$work/nicd.log")" >&2; exit 1; }
    c0=$(cycles_now)
    while [ "$(cycles_now)" = "$c0" ]; do sleep 0.02; done # at a cycle's end
    c0=$(cycles_now)
    t0=$(cpu_ns "$pid")
    while [ "$(($(cycles_now) - c0))" -lt 15 ]; do sleep 0.05; done
    t1=$(cpu_ns "$pid")
    c1=$(cycles_now)
    cp "$textfile" "$work/$1.prom"
    job_stop "$pid"
    series=$(grep -c '^nicd_' "$work/$1.prom")
    bytes=$(wc -c <"$work/$1.prom")
    cycle_ms=$(awk -v a="$t0" -v b="$t1" -v n="$((c1 - c0))" 'BEGIN { printf "%.2f", (b - a) / n / 1e6 }')
}

echo "== the textfile on $ports RoCE ports of 64 channels (about 6,900 ethtool statistics a netdev), a cycle a second, 15 cycles"
printf '| %-18s | %-9s | %-12s | %-17s | %-26s |\n' "Counters=" "series" "series/port" "KiB/port" "nicd ms/cycle, ne ms/scrape"
for counters in default all none; do
    run "$counters"
    textfile_scrape_ms "$work/$counters.prom" 40
    printf '| %-18s | %-9s | %-12s | %-17s | %-26s |\n' "$counters" "$series" "$(per "$series" "$ports")" \
        "$(per "$((bytes / 1024))" "$ports")" "$cycle_ms, $scrape_ms"
    [ "$counters" = default ] && default_per_port=$(per "$series" "$ports")
done
awk -v s="$default_per_port" 'BEGIN { printf "default series per port: %s (target <= 60): %s\n", s, (s <= 60 ? "pass" : "FAIL") }'
