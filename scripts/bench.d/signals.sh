#!/usr/bin/env bash
# The pre-failure signals and the fast cycle: the daemon on 64 simulated devices, a cycle every
# 200 ms, with [signals] Enable=no and with the default (slow reads every 60 s, so none falls in
# the measured window): the fast cycle must cost the same. Then the slow reads themselves, every
# second, as CPU per read of all 64 devices. Method: docs/performance.md.
set -euo pipefail
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/scripts/lib/jobs.sh"
jobs_work_dir nicd-bench-signals
root=$work/node
tick=$(getconf CLK_TCK)
"$build/tools/nicd-sim/nicd-sim" create "$root" --devices 64 >/dev/null
sleep 2 # let the new tree settle (see bench.sh)

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
cycles_now() { awk '$1 == "nicd_cycles_total" {print $2}' "$root/var/lib/prometheus/node-exporter/nicd.prom" 2>/dev/null || true; }
# run_daemon SIGNALS_SECTION SECONDS: sets per_cycle (CPU seconds), cycles and cpu (CPU seconds).
# In this shell, not a subshell, so the EXIT trap knows the daemon's job.
run_daemon() {
    cat >"$work/nicd.conf" <<CONF
[daemon]
PollIntervalMs=200
[signals]
$1
CONF
    rm -rf "$root/var/lib/nicd"
    job "$build/daemon/nicd" --root "$root" --config "$work/nicd.conf" --plugin-directory "$build/plugins" --no-dbus --log-level warn >/dev/null
    nicd_pid=$job_pid
    sleep 4 # startup and the first slow read
    local c0 t0 c1 t1
    c0=$(cycles_now)
    t0=$(cpu_ticks "$nicd_pid")
    sleep "$2"
    c1=$(cycles_now)
    t1=$(cpu_ticks "$nicd_pid")
    job_stop "$nicd_pid"
    if [ -z "$c0" ] || [ -z "$c1" ] || [ "$((c1 - c0))" -le 0 ]; then
        echo "bench: the daemon wrote no cycles (nicd_cycles_total '$c0' -> '$c1')" >&2
        exit 1
    fi
    cycles=$((c1 - c0))
    cpu=$(awk -v a="$t1" -v b="$t0" -v t="$tick" 'BEGIN { printf "%.3f", (a-b)/t }')
    per_cycle=$(awk -v c="$cpu" -v n="$cycles" 'BEGIN { printf "%.6f", c/n }')
}

echo "== pre-failure signals: the fast cycle with and without them, 64 devices, a cycle every 200 ms"
run_daemon "Enable=no" 15
off_cycle=$per_cycle off_n=$cycles
run_daemon "Enable=yes" 15
on_cycle=$per_cycle on_n=$cycles
run_daemon $'Enable=yes\nIntervalSec=1' 10
fast_n=$cycles fast_cpu=$cpu
echo "signals off:                             ${off_cycle}s CPU per cycle ($off_n cycles)"
echo "signals on, no slow read in the window:  ${on_cycle}s CPU per cycle ($on_n cycles)"
awk -v on="$on_cycle" -v off="$off_cycle" 'BEGIN {
    if (off <= 0) { print "fast cycle ratio: not measurable"; exit }
    r = on / off
    printf "fast cycle on/off: %.3f (target <= 1.10, the fast cycle unchanged): %s\n", r, (r <= 1.10 ? "met" : "NOT met") }'
awk -v c="$fast_cpu" -v n="$fast_n" -v per="$on_cycle" 'BEGIN {
    # CPU beyond what the fast cycles cost, spread over the ~10 slow reads of the window.
    extra = c - n * per
    printf "slow reads every second: %.4fs CPU per read of 64 devices (FEC, module EEPROM, hwmon, PCIe, devlink), on the worker\n", (extra > 0 ? extra : 0) / 10 }'
