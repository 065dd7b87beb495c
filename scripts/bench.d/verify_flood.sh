#!/usr/bin/env bash
# A flood of Verify calls and the collection cycle: nicd on 64 simulated devices, a cycle every
# second, on a private bus with nicd's own policy; the cycle's period (from one cycle's end to
# the next, nicd_last_cycle_timestamp_seconds) measured for $seconds s without clients, then for
# as long with 8 unprivileged clients (nobody, a connection each) calling Verify in a loop.
# Verify is everyone's, and each call asks for a QoS round on the worker that also runs the
# cycles; calls that come while a round waits share it (provision/provision_scheduler.hpp), so at
# most one round runs and one waits however many clients call, and cycles start on a fixed grid
# (loop/event_loop.cpp). Bound, "the cycle period is not stretched": the mean period within 2% of
# the quiet one's (the cadence holds: no cycle skipped or pushed back for good), and no period
# over the interval plus a quarter of it (a cycle may wait behind the one round running, a few ms
# on 64 ports, longer on a busy 2-CPU machine; rounds piling up in front of a cycle would take
# it far past that).
#   verify_flood.sh BUILD_DIR   (NICD_BENCH_FLOOD_SECONDS=N: each phase, default 20)
set -euo pipefail
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/scripts/lib/private_bus.sh"
. "$here/scripts/lib/jobs.sh"
seconds=${NICD_BENCH_FLOOD_SECONDS:-20}
interval_ms=1000
jobs_work_dir nicd-bench-flood
chmod 755 "$work" # nobody's clients reach the bus socket
echo "== a Verify flood and the collection cycle: 64 devices, a cycle every ${interval_ms} ms, ${seconds} s without and with 8 clients calling Verify in a loop"

"$build/tools/nicd-sim/nicd-sim" create "$work/node" --devices 64 >/dev/null
sleep 2 # let the new tree settle (see bench.sh)
private_bus_conf "unix:path=$work/bus.socket" "$here/dbus/io.nicd.Nicd1.conf" >"$work/bus.conf"
job dbus-daemon --nofork --nopidfile --config-file="$work/bus.conf" >"$work/dbus.log" 2>&1
for _ in $(seq 100); do [ -S "$work/bus.socket" ] && break; sleep 0.1; done
bus="unix:path=$work/bus.socket"
cat >"$work/nicd.conf" <<CONF
[daemon]
PollIntervalMs=$interval_ms
PmaIntervalMs=$interval_ms
CONF
job "$build/daemon/nicd" --root "$work/node" --config "$work/nicd.conf" --plugin-directory "$build/plugins" \
    --bus "$bus" --log-level warn \
    >"$work/nicd.log" 2>&1
textfile=$work/node/var/lib/prometheus/node-exporter/nicd.prom
for _ in $(seq 300); do [ -s "$textfile" ] && break; sleep 0.1; done
[ -s "$textfile" ] || { echo "bench: nicd wrote no textfile: $(cat "$work/nicd.log")" >&2; exit 1; }
sleep 3 # past start-up: the first provisioning round, the first slow signal reads

# periods SECONDS OUT: each cycle's end (nicd_last_cycle_timestamp_seconds) seen for SECONDS,
# as "period_seconds publish_lag_seconds" lines (the lag: from the cycle's end until its textfile
# was seen, to within the 20 ms this polls at).
periods() {
    local end last=
    end=$(($(date +%s) + $1))
    : >"$2"
    while [ "$(date +%s)" -lt "$end" ]; do
        read -r ts took < <(awk '$1 == "nicd_last_cycle_timestamp_seconds" {t = $2}
            $1 == "nicd_cycle_duration_seconds" {d = $2} END {print t, d}' "$textfile" 2>/dev/null || true)
        if [ -n "$ts" ] && [ "$ts" != "$last" ]; then
            [ -n "$last" ] && awk -v a="$last" -v b="$ts" -v now="$(date +%s.%N)" -v d="$took" \
                'BEGIN { printf "%.4f %.4f %.4f\n", b - a, now - b, d }' >>"$2"
            last=$ts
        fi
        sleep 0.02
    done
}
# summary FILE: "median M s, max X s, publish lag max L s (N periods)"
summary() {
    sort -n "$1" | awk '{ p[NR] = $1; sum += $1; if ($1 > max) max = $1; if ($2 > lag) lag = $2; d += $3 }
        END { printf "mean %.3f s, median %.3f s, max %.3f s; collection %.1f ms a cycle; publish lag max %.3f s (%d periods)", sum / NR, p[int((NR + 1) / 2)], max, d / NR * 1000, lag, NR }'
}
mean() { awk '{ s += $1 } END { print s / NR }' "$1"; }
maxof() { sort -n "$1" | tail -1 | awk '{print $1}'; }

periods "$seconds" "$work/quiet"
job "$build/tests/bench/verify_flood_bench" "$bus" 8 $((seconds + 2)) >"$work/flood.out" 2>&1
flood=$job_pid
sleep 1
periods "$seconds" "$work/flooded"
wait "$flood" || true
echo "without clients: cycle period $(summary "$work/quiet")"
echo "8 clients:       cycle period $(summary "$work/flooded"); $(cat "$work/flood.out")"
q=$(mean "$work/quiet")
f=$(mean "$work/flooded")
m=$(maxof "$work/flooded")
verdict=$(awk -v q="$q" -v f="$f" -v m="$m" -v i="$interval_ms" \
    'BEGIN { print (f <= q * 1.02 && m <= i / 1000 * 1.25) ? "pass" : "FAIL" }')
echo "cycle period not stretched by a Verify flood (mean within 2% of the quiet one's, none over $((interval_ms * 5 / 4)) ms): $verdict"
grep -q ' answered' "$work/flood.out" && ! grep -q '^0 Verify' "$work/flood.out" ||
    echo "bench: the clients' calls were not answered: $(cat "$work/flood.out")"
