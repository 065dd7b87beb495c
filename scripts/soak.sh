#!/usr/bin/env bash
# make soak: nicd under load for a long time, on a simulated 64-device node, and what it held.
#
#   scripts/soak.sh [--seconds N] [--devices N] [--clients N] [--journal-rate N] [--idle N]
#                   [--no-faults] [--out DIR] [--build DIR] [--seed N]
#   (or SOAK_SECONDS, SOAK_DEVICES, SOAK_CLIENTS, SOAK_JOURNAL_RATE, SOAK_IDLE_SECONDS,
#    SOAK_FAULTS=0, SOAK_OUT, NICD_BUILD_DIR, SOAK_SEED; --clients 0, --journal-rate 0 and
#    --no-faults leave a load out, to tell which one a failure comes from)
#
# nicd runs as systemd would run it (NOTIFY_SOCKET with a watchdog, on a private system bus), a
# cycle every 500 ms, pre-failure signals every second. First it runs IDLE seconds (default 30)
# with nothing but the simulator's counters moving: the idle cycle time. Then, for SECONDS
# (default 600), all at once:
#   - faults: every 200-500 ms a random fault (link down, FEC, optics, ASIC heat, firmware fatal,
#     PCIe and port rate downtrain, firmware drift, pause storm, lossy priority, device removal)
#     on a random device that has none, at most 8 at a time; each is cleared as soon as nicd's
#     textfile shows its condition, and must then recover (seen within 45 s, recovered within
#     60 s of the clear). "Seen after" is nicd's own time: from the injection to the condition's
#     nicd_condition_since_timestamp_seconds; the harness may notice later;
#   - the journal: JOURNAL_RATE (default 2000) kernel lines a second through
#     systemd-journal-remote into <root>/var/log/journal, mostly noise, 1 in 200 an mlx5 error nicd
#     classifies on a device of the node (moving across the devices, so kernel conditions raise
#     and expire: KernelHoldSec=20), 1 in 8 an mlx5 register access error for a PCI address the
#     node does not have (classified and counted, no condition);
#     a new journal file every 30 s, the oldest deleted beyond 3 (as journald rotates and vacuums);
#   - CLIENTS (default 4) D-Bus clients calling GetManagedObjects, Device and Port GetCounters,
#     GetEvents and Verify back to back, each a new busctl process;
#   - samplers: the textfile's first lines every 200 ms (the cycle), and every 2 s `promtool check
#     metrics` on a copy of the textfile, /proc/PID/smaps_rollup, /proc/PID/fd, GetEvents.
# The event ring is EventRingSize=256, so a run long enough wraps it.
#
# It prints a figures block and exits 1 naming every assertion that failed (0: all held; 77:
# a tool it needs is missing). The assertions and their bounds:
#   - nicd neither crashed nor restarted: the same PID throughout, READY=1 once, "started" logged
#     once, nicd_cycles_total never going back;
#   - every fault injected was seen and recovered (no fault missed, none left standing);
#   - every textfile sample passed `promtool check metrics` with nicd_up 1;
#   - cycle time: p99 of nicd_cycle_duration_seconds under load <= 3 x idle p99 + one poll
#     interval (500 ms: the idle p99 of a quiet machine is as low as 50 ms, and one busy second
#     of the machine's other work must not fail the soak). Two
#     cores are shared by nicd, the clients, the journal writer and the samplers, so a cycle under
#     load is slower because it waits for a CPU, not because of nicd: the bound allows for that
#     and still catches a cycle that does work in proportion to the load (a journal read or a
#     D-Bus reply inside the cycle);
#   - the cycle is not starved: cycles under load >= 80% of SECONDS / PollIntervalMs, and no
#     two cycles more than 2 s (4 poll intervals) apart;
#   - the watchdog is not starved: WATCHDOG=1 keeps arriving, never more than WATCHDOG_USEC (2 s,
#     the unit has 30 s) apart;
#   - private memory flat: anonymous memory (heap and stacks, /proc/PID/smaps_rollup Anonymous,
#     sampled every 500 ms) grows by less than 1 MiB after the warm-up (the first third of the
#     load, at most 120 s): the peak of the second half of what follows the warm-up against the
#     peak of the first half. Between two samples the heap moves by up to 2 MiB (two snapshots
#     alive while a cycle makes the new one; glibc gives the top of the heap back now and then),
#     so single samples, or medians over a plateau, say nothing; the peak it comes back to each
#     time does, and a leak lifts it. Private file-backed pages (sd-journal maps the journal
#     files it reads; the kernel drops them at will) are reported, not asserted;
#   - open file descriptors flat: after the load (every fault cleared, every device back) at most
#     2 more than in the idle phase, those on journal files apart (sd-journal holds one per file:
#     3 or 4 here), and none left on a journal file the vacuum deleted. During the load the count
#     moves with the faults (a removed device's directories are closed), so it is reported only;
#   - the event ring bounded: GetEvents(0) never longer than EventRingSize;
#   - no D-Bus call timed out or found nicd gone (errors a removed device explains are expected).
#
# Everything it starts is stopped on exit, failure or interruption included. The work directory
# (logs, samples, the figures) is kept under --out, or on failure; else removed.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/scripts/lib/private_bus.sh"
seconds=${SOAK_SECONDS:-600}
devices=${SOAK_DEVICES:-64}
clients=${SOAK_CLIENTS:-4}
journal_rate=${SOAK_JOURNAL_RATE:-2000}
idle_seconds=${SOAK_IDLE_SECONDS:-30}
out=${SOAK_OUT:-}
build=${NICD_BUILD_DIR:-$here/build}
seed=${SOAK_SEED:-$((RANDOM * 32768 + RANDOM))}
faults_on=${SOAK_FAULTS:-1}

usage() {
    sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'
    exit "${1:-2}"
}
number() { [[ $2 =~ ^[0-9]+$ ]] || { echo "soak: $1 takes a whole number, not '$2'" >&2; exit 2; }; }
while [ $# -gt 0 ]; do
    case $1 in
    --seconds) number "$1" "${2:-}"; seconds=$2; shift 2 ;;
    --devices) number "$1" "${2:-}"; devices=$2; shift 2 ;;
    --clients) number "$1" "${2:-}"; clients=$2; shift 2 ;;
    --journal-rate) number "$1" "${2:-}"; journal_rate=$2; shift 2 ;;
    --idle) number "$1" "${2:-}"; idle_seconds=$2; shift 2 ;;
    --seed) number "$1" "${2:-}"; seed=$2; shift 2 ;;
    --no-faults) faults_on=0; shift ;;
    --out) out=${2:?--out takes a directory}; shift 2 ;;
    --build) build=${2:?--build takes a directory}; shift 2 ;;
    -h | --help) usage 0 ;;
    *) echo "soak: unknown argument '$1'" >&2; usage ;;
    esac
done
for v in seconds devices clients journal_rate idle_seconds; do number "--${v//_/-}" "${!v}"; done
[ "$seconds" -ge 10 ] || { echo "soak: --seconds must be at least 10" >&2; exit 2; }
[ "$devices" -ge 2 ] || { echo "soak: --devices must be at least 2" >&2; exit 2; }
[ "$journal_rate" = 0 ] || [ "$journal_rate" -ge 10 ] || { echo "soak: --journal-rate must be 0 (none) or at least 10" >&2; exit 2; }
build=$(cd "$build" && pwd)

nicd=$build/daemon/nicd
sim=$build/tools/nicd-sim/nicd-sim
notify_listen=$build/tests/tools/notify_listen
journal_flood_bin=$build/tests/tools/journal_flood
journal_remote=/lib/systemd/systemd-journal-remote
for b in "$nicd" "$sim" "$notify_listen" "$journal_flood_bin" "$build/plugins/nicd-plugin-mlx5.so"; do
    [ -e "$b" ] || { echo "soak: $b is not built (make build)" >&2; exit 1; }
done
for tool in dbus-daemon busctl promtool "$journal_remote"; do
    command -v "$tool" >/dev/null || { echo "soak: skipped, $tool is not installed (scripts/install-deps.sh)"; exit 77; }
done

# The daemon's settings and the bounds (see above).
poll_ms=500
watchdog_usec=2000000
ring_size=256
max_in_flight=8
seen_timeout_ms=45000 # fw-drift: the inventory walks in full every 30 s
recover_timeout_ms=60000
cycle_factor=3
cycle_slack_s=$(awk -v p=$poll_ms 'BEGIN { print p / 1000 }')
cycle_rate_min=0.80
cycle_gap_max_s=2.0
memory_growth_max_kib=1024
fd_growth_max=2
warmup_seconds=$((seconds / 3 < 120 ? seconds / 3 : 120))
journal_segment_s=30
journal_files_kept=3

if [ -n "$out" ]; then
    mkdir -p "$out"
    work=$(cd "$out" && pwd)
    keep_work=1
else
    work=$(mktemp -d /tmp/nicd-soak.XXXXXX)
    keep_work=0
fi
root=$work/node
textfile=$root/var/lib/prometheus/node-exporter/nicd.prom
bus_dir=$work/bus
bus="unix:path=$bus_dir/socket"
jdir=$root/var/log/journal/0123456789abcdef0123456789abcdef
rm -rf "$root" "$bus_dir" "$work"/*.log "$work"/*.txt "$work"/stop* "$work"/bad-*.prom* "$work/injector.done"

# Every component runs as its own job (set -m: a process group each), so stopping one stops all
# it started. A reaper outlives this shell if it is killed outright and stops them all then.
set -m
jobs_file=$work/jobs
: >"$jobs_file"
nicd_pid=
reaper=
start_job() { # start_job NAME COMMAND...: runs COMMAND in the background as a job of its own
    local name=$1
    shift
    "$@" &
    echo "$! $name" >>"$jobs_file"
    last_job=$!
}
running() { # running PID: alive and not a zombie waiting for this shell
    local _ state
    { read -r _ _ state _ <"/proc/$1/stat"; } 2>/dev/null && [ "$state" != Z ]
}
stop_jobs() {
    local pid name alive
    touch "$work/stop" "$work/stop-samplers"
    sleep 0.5
    # nicd before its bus, the bus last: in reverse order of start.
    tac "$jobs_file" 2>/dev/null | while read -r pid name; do
        kill -TERM -- "-$pid" 2>/dev/null || true
    done
    for _ in $(seq 50); do
        alive=0
        while read -r pid name; do
            if running "$pid"; then alive=1; fi
        done <"$jobs_file"
        [ "$alive" = 0 ] && break
        sleep 0.1
    done
    while read -r pid name; do
        kill -KILL -- "-$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done <"$jobs_file"
    : >"$jobs_file"
}
result=1
# shellcheck disable=SC2317 # called by the trap
cleanup() {
    stop_jobs
    if [ -n "$reaper" ]; then
        kill -KILL "$reaper" 2>/dev/null || true
        wait "$reaper" 2>/dev/null || true
    fi
    rm -rf "$jdir" # hundreds of MB of journal
    if [ "$keep_work" = 0 ] && [ "$result" = 0 ]; then
        rm -rf "$work"
    else
        echo "soak: logs and samples kept in $work"
    fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
main_pid=$$
(
    trap '' INT TERM
    while kill -0 "$main_pid" 2>/dev/null; do sleep 1; done
    while read -r pid _; do kill -KILL -- "-$pid" 2>/dev/null || true; done <"$jobs_file"
    rm -rf "$jdir"
) >/dev/null 2>&1 &
reaper=$!

now_ms() { local t=${EPOCHREALTIME/./}; echo $((t / 1000)); }
log() { printf '%s soak: %s\n' "$(date +%T)" "$*"; }
# Written whole (a rename): a sampler reading it as it is truncated would read nothing, and
# set -e would end that sampler then and there.
phase() { echo "$1" >"$work/phase.new" && mv -f "$work/phase.new" "$work/phase"; }
phase setup

: >"$work/injector.err"
: >"$work/faults.log"
log "work directory $work; seed $seed; $seconds s of load after $idle_seconds s idle"

# ---------------------------------------------------------------------------------------------
# The node, the bus, the service manager's notify socket, nicd.
"$sim" create "$root" --devices "$devices" >/dev/null
mapfile -t node_devices < <("$sim" list "$root" | awk '$2 == "pf" && $3 ~ /:ACTIVE/ {print $1}')
mapfile -t node_pcis < <("$sim" list "$root" | awk '$2 == "pf" {print $NF}')
[ "${#node_devices[@]}" -ge 2 ] || { echo "soak: the simulated node has no usable devices" >&2; exit 1; }
boot_id=$(tr -d '-' <"$root/proc/sys/kernel/random/boot_id")
mkdir -p "$jdir"

cat >"$work/nicd.conf" <<CONF
[daemon]
PollIntervalMs=$poll_ms
PmaIntervalMs=$((poll_ms * 4))
[provision]
VerifyIntervalSec=10
[signals]
IntervalSec=1
[health]
CongestionWindowSec=5
KernelHoldSec=20
EventRingSize=$ring_size
CONF

mkdir -p "$bus_dir"
private_bus_conf "$bus" "$here/dbus/io.nicd.Nicd1.conf" >"$bus_dir/bus.conf"
start_job dbus-daemon dbus-daemon --nofork --nopidfile --config-file="$bus_dir/bus.conf" >"$bus_dir/dbus-daemon.log" 2>&1
for _ in $(seq 100); do [ -S "$bus_dir/socket" ] && break; sleep 0.1; done
[ -S "$bus_dir/socket" ] || { echo "soak: dbus-daemon did not start: $(cat "$bus_dir/dbus-daemon.log")" >&2; exit 1; }
call() { busctl --address="$bus" --timeout=30 "$@"; }

start_job notify "$notify_listen" "$work/notify.sock" >"$work/notify.log" 2>&1
for _ in $(seq 100); do [ -S "$work/notify.sock" ] && break; sleep 0.1; done
# Counters move (traffic, FEC corrections, pauses): what the pre-failure and congestion rules read.
start_job nicd-sim "$sim" run "$root" --interval-ms 500 >"$work/sim.log" 2>&1
sleep 1 # let the new tree settle (see bench.sh)

start_job nicd env NOTIFY_SOCKET="$work/notify.sock" WATCHDOG_USEC=$watchdog_usec \
    "$nicd" --root "$root" --config "$work/nicd.conf" --plugin-directory "$build/plugins" --bus "$bus" >"$work/nicd.log" 2>&1
nicd_pid=$last_job
for _ in $(seq 600); do grep -q 'READY=1' "$work/notify.log" && break; sleep 0.1; done
grep -q 'READY=1' "$work/notify.log" || { echo "soak: nicd did not become ready in 60 s; its log:" >&2; tail -20 "$work/nicd.log" >&2; exit 1; }
# `env` execs nicd: the job's PID is nicd's.
[ "$(cat "/proc/$nicd_pid/comm")" = nicd ] || { echo "soak: nicd is not PID $nicd_pid" >&2; exit 1; }
log "nicd ready (PID $nicd_pid): ${#node_devices[@]} devices, a cycle every $poll_ms ms"

# ---------------------------------------------------------------------------------------------
# Samplers: they run from the idle phase to the end; each line starts with the phase and the ms
# since the start.
#   cycles.log: a line per new cycle: cycles_total, cycle duration, last cycle timestamp, nicd_up;
#   memory.log: every 500 ms, anonymous, private and RSS KiB;
#   process.log: every 2 s, RSS, private, anonymous KiB, descriptors (those on journal files
#     apart, and those on journal files already deleted), GetEvents length, LastEventSeq, state
#     file bytes, CPU ticks, textfile validity.
t_start=$(now_ms)
cycle_sampler() { # the textfile's head every 200 ms, a line per new cycle
    local lines l up cycles dur ts last=-1 p t
    while [ ! -e "$work/stop-samplers" ]; do
        read -r p <"$work/phase" || p=unknown
        if mapfile -t -n 12 lines <"$textfile" 2>/dev/null; then
            up=- cycles=- dur=- ts=-
            for l in "${lines[@]}"; do
                case $l in
                "nicd_up "*) up=${l#* } ;;
                "nicd_cycles_total "*) cycles=${l#* } ;;
                "nicd_cycle_duration_seconds "*) dur=${l#* } ;;
                "nicd_last_cycle_timestamp_seconds "*) ts=${l#* } ;;
                esac
            done
            if [ "$cycles" != "$last" ]; then
                t=${EPOCHREALTIME/./}
                echo "$p $((t / 1000 - t_start)) $cycles $dur $ts $up"
                last=$cycles
            fi
        else
            echo "$p $(($(now_ms) - t_start)) missing - - -"
        fi
        sleep 0.2
    done >>"$work/cycles.log"
}
# nicd's memory (RSS, private, anonymous KiB) and descriptors (other, journal, deleted journal).
sample_process() {
    local mem fds
    mem=$(awk '/^Rss:/ {r=$2} /^Private_Clean:/ {pc=$2} /^Private_Dirty:/ {pd=$2}
               /^Anonymous:/ {a=$2} END {print r, pc + pd, a}' "/proc/$nicd_pid/smaps_rollup" 2>/dev/null) || mem="- - -"
    fds=$(find "/proc/$nicd_pid/fd" -mindepth 1 -printf '%l\n' 2>/dev/null |
        awk '/\/var\/log\/journal\// { if (/\(deleted\)$/) d++; else j++; next } { o++ } END { print o + 0, j + 0, d + 0 }') || fds="- - -"
    echo "$mem $fds"
}
memory_sampler() {
    local p key value _ anon priv rss
    while [ ! -e "$work/stop-samplers" ]; do
        read -r p <"$work/phase" || p=unknown
        anon=- priv=0 rss=-
        while read -r key value _; do
            case $key in
            Rss:) rss=$value ;;
            Private_Clean: | Private_Dirty:) priv=$((priv + value)) ;;
            Anonymous:) anon=$value ;;
            esac
        done <"/proc/$nicd_pid/smaps_rollup" 2>/dev/null || true
        echo "$p $(($(now_ms) - t_start)) $anon $priv $rss"
        sleep 0.5
    done >>"$work/memory.log"
}
process_sampler() { # every 2 s: memory, descriptors, the event ring, the textfile's validity
    local p n=0 events seq valid state st
    while [ ! -e "$work/stop-samplers" ]; do
        read -r p <"$work/phase" || p=unknown
        if ! kill -0 "$nicd_pid" 2>/dev/null; then
            echo "$p $(($(now_ms) - t_start)) gone"
            sleep 2
            continue
        fi
        read -ra st <"/proc/$nicd_pid/stat" || st=()
        state=$(stat -c %s "$root/var/lib/nicd/state.json" 2>/dev/null) || state=-
        events=$(call call io.nicd.Nicd1 /io/nicd/Nicd1 io.nicd.Nicd1.Manager GetEvents t 0 2>/dev/null |
            awk '{print $2; exit}') || true
        seq=$(call get-property io.nicd.Nicd1 /io/nicd/Nicd1 io.nicd.Nicd1.Manager LastEventSeq 2>/dev/null |
            awk '{print $2}') || true
        n=$((n + 1))
        valid=ok
        if ! cp "$textfile" "$work/sample.prom" 2>/dev/null; then
            valid=missing
        elif ! promtool check metrics <"$work/sample.prom" >"$work/promtool.out" 2>&1; then
            valid=invalid
            cp "$work/sample.prom" "$work/bad-$n.prom"
            cp "$work/promtool.out" "$work/bad-$n.promtool"
        elif ! grep -qx 'nicd_up 1' "$work/sample.prom"; then
            valid=not-up
        fi
        echo "$p $(($(now_ms) - t_start)) $(sample_process) ${events:--} ${seq:--} $state $((${st[13]:-0} + ${st[14]:-0})) $valid"
        sleep 2
    done >>"$work/process.log"
}
# The harness's own measuring jobs (these samplers, the fault injector) run at a higher priority
# than the loads and nicd (nice -5), so that what they measure is nicd's delay, not theirs for a
# CPU: on two cores the journal writer and the clients would otherwise hold them off for seconds.
harness() { renice -n -5 -p "$last_job" >/dev/null 2>&1 || true; }
start_job cycle-sampler cycle_sampler
harness
start_job process-sampler process_sampler
harness
start_job memory-sampler memory_sampler
harness

# ---------------------------------------------------------------------------------------------
# The loads.

# Kernel lines in journal export format (tests/tools/journal_flood: JOURNAL_RATE a second, mostly
# noise, 1 in 200 an mlx5 error on a device of the node), through systemd-journal-remote.
journal_flood() {
    local segment=0 n=0 f
    echo 0 >"$work/journal.count"
    while [ ! -e "$work/stop" ]; do
        "$journal_flood_bin" --stop-file "$work/stop" "$journal_rate" "$journal_segment_s" "$boot_id" "$n" "${node_pcis[@]}" 2>"$work/journal.count" |
            "$journal_remote" --output="$jdir/flood-$segment.journal" - >>"$work/journal-remote.log" 2>&1 ||
            echo "systemd-journal-remote failed on flood-$segment.journal" >>"$work/journal-remote.log"
        n=$(cat "$work/journal.count")
        segment=$((segment + 1))
        # Vacuum: the oldest files beyond the newest few go, as journald's SystemMaxUse= does.
        { ls -t "$jdir"/flood-*.journal 2>/dev/null || true; } | tail -n +$((journal_files_kept + 1)) |
            while read -r f; do rm -f "$f"; done
    done
}

# D-Bus clients: each calls the methods in turn, back to back; a line per call (method, ms, result).
client() {
    local k=$1 n=$1 dev name t0 t1 err=$work/client-$1.err
    local -a args
    RANDOM=$((seed + k + 1))
    while [ ! -e "$work/stop" ]; do
        dev=${node_devices[RANDOM % ${#node_devices[@]}]}
        case $((n % 5)) in
        0) name=GetManagedObjects; args=(/io/nicd/Nicd1 org.freedesktop.DBus.ObjectManager GetManagedObjects) ;;
        1) name=Device.GetCounters; args=("/io/nicd/Nicd1/device/$dev" io.nicd.Nicd1.Device GetCounters) ;;
        2) name=Port.GetCounters; args=("/io/nicd/Nicd1/device/$dev/port/1" io.nicd.Nicd1.Port GetCounters) ;;
        3) name=GetEvents; args=(/io/nicd/Nicd1 io.nicd.Nicd1.Manager GetEvents t 0) ;;
        4) name=Verify; args=(/io/nicd/Nicd1 io.nicd.Nicd1.Manager Verify) ;;
        esac
        n=$((n + 1))
        t0=${EPOCHREALTIME/./}
        if call call io.nicd.Nicd1 "${args[@]}" >/dev/null 2>"$err"; then
            t1=${EPOCHREALTIME/./}
            echo "$name $(((t1 - t0) / 1000)) ok"
        else
            t1=${EPOCHREALTIME/./}
            echo "$name $(((t1 - t0) / 1000)) error $(tr '\n' ' ' <"$err")"
        fi
    done >>"$work/client-$k.log"
}

# Faults: "fault clear condition-code".
faults=(
    "link-down link-up port_down"
    "fec-degrade fec-degrade-clear fec_margin"
    "optics-rx-low optics-rx-low-clear optics_rx_power_low"
    "asic-hot asic-hot-clear asic_temperature_high"
    "fw-fatal fw-fatal-clear firmware_fatal"
    "pcie-downtrain pcie-downtrain-clear pcie_link_degraded"
    "rate-downtrain rate-downtrain-clear port_rate_degraded"
    "fw-drift fw-drift-clear firmware_drift"
    "pause-storm pause-storm-clear congestion.pause_storm"
    "lossy lossy-clear congestion.lossy"
    "remove restore device_missing"
)
# One line per fault to faults.log: id fault device code outcome seen_ms recovered_ms.
injector() {
    RANDOM=$seed
    local -A f_dev=() f_kind=() f_state=() f_t0=() f_t1=() busy=() active=() since=()
    local id=0 now next_inject=0 stopping=0 line dev kind fault clear code cond
    while :; do
        now=$(now_ms)
        if [ "$stopping" = 0 ] && [ -e "$work/stop" ]; then stopping=1; fi
        [ "$stopping" = 1 ] && [ "${#f_state[@]}" = 0 ] && break
        # The conditions nicd publishes now, and when nicd saw each first (its own time: how
        # long this loop took to look is not nicd's delay).
        active=()
        since=()
        while read -r line; do
            if [[ $line =~ ^nicd_condition_active\{device=\"([^\"]*)\",port=\"[0-9]+\",code=\"([^\"]*)\" ]]; then
                active["${BASH_REMATCH[1]}|${BASH_REMATCH[2]}"]=1
            elif [[ $line =~ ^nicd_condition_since_timestamp_seconds\{device=\"([^\"]*)\",port=\"[0-9]+\",code=\"([^\"]*)\"\}\ ([0-9.e+]+)$ ]]; then
                since["${BASH_REMATCH[1]}|${BASH_REMATCH[2]}"]=${BASH_REMATCH[3]}
            fi
        done < <(grep -E '^nicd_condition_(active|since_timestamp_seconds)' "$textfile" 2>/dev/null || true)
        for i in "${!f_state[@]}"; do
            dev=${f_dev[$i]}
            read -r fault clear code <<<"${faults[${f_kind[$i]}]}"
            cond=${active["$dev|$code"]:-}
            case ${f_state[$i]} in
            injected)
                if [ -n "$cond" ] || [ $((now - ${f_t0[$i]})) -gt $seen_timeout_ms ]; then
                    f_t1[$i]=-1
                    if [ -n "$cond" ]; then
                        f_t1[$i]=$((now - ${f_t0[$i]}))
                        local at=${since["$dev|$code"]:-}
                        if [ -n "$at" ]; then # nicd's own time, to the ms
                            at=$(awk -v s="$at" -v t0="${f_t0[$i]}" 'BEGIN { d = s * 1000 - t0; printf "%d", d < 0 ? 0 : d }')
                            [ "$at" -le "${f_t1[$i]}" ] && f_t1[$i]=$at
                        fi
                    fi
                    "$sim" inject "$root" "$clear" "$dev" >/dev/null 2>>"$work/injector.err" ||
                        echo "$(date +%T) $clear $dev failed" >>"$work/injector.err"
                    f_t0[$i]=$(now_ms)
                    f_state[$i]=cleared
                fi
                ;;
            cleared)
                if [ -z "$cond" ] || [ $((now - ${f_t0[$i]})) -gt $recover_timeout_ms ]; then
                    local outcome=recovered recovered=$((now - ${f_t0[$i]}))
                    [ -n "$cond" ] && outcome=not-recovered recovered=-1
                    [ "${f_t1[$i]}" = -1 ] && outcome=missed
                    echo "$i $fault $dev $code $outcome ${f_t1[$i]} $recovered"
                    unset "f_state[$i]" "f_dev[$i]" "f_kind[$i]" "f_t0[$i]" "f_t1[$i]"
                    # A device whose fault did not go away is not used again.
                    if [ "$outcome" = recovered ]; then unset "busy[$dev]"; fi
                fi
                ;;
            esac
        done
        if [ "$stopping" = 0 ] && [ "$now" -ge "$next_inject" ] && [ "${#f_state[@]}" -lt $max_in_flight ]; then
            next_inject=$((now + 200 + RANDOM % 300))
            dev=${node_devices[RANDOM % ${#node_devices[@]}]}
            kind=$((RANDOM % ${#faults[@]}))
            if [ -z "${busy[$dev]:-}" ]; then
                read -r fault clear code <<<"${faults[$kind]}"
                if "$sim" inject "$root" "$fault" "$dev" >/dev/null 2>>"$work/injector.err"; then
                    id=$((id + 1))
                    busy[$dev]=1 f_dev[$id]=$dev f_kind[$id]=$kind f_state[$id]=injected f_t0[$id]=$(now_ms)
                else
                    echo "$(date +%T) $fault $dev failed" >>"$work/injector.err"
                fi
            fi
        fi
        sleep 0.1
    done >>"$work/faults.log"
    touch "$work/injector.done"
}

# ---------------------------------------------------------------------------------------------
phase idle
log "idle: $idle_seconds s, nothing but counters moving"
sleep "$idle_seconds"

phase load
t_load=$(now_ms)
log "load: $seconds s of faults, $journal_rate kernel lines/s, $clients D-Bus clients (warm-up $warmup_seconds s)"
[ "$journal_rate" = 0 ] || start_job journal journal_flood
for ((k = 0; k < clients; k++)); do start_job "client-$k" client "$k"; done
if [ "$faults_on" = 1 ]; then
    start_job injector injector
    harness
else
    touch "$work/injector.done"
fi
while [ $(($(now_ms) - t_load)) -lt $((seconds * 1000)) ]; do
    kill -0 "$nicd_pid" 2>/dev/null || break
    sleep 1
done
t_end=$(now_ms)
phase drain
touch "$work/stop"
log "load stopped; waiting for the faults in flight to be seen and recovered"
for _ in $(seq $(((seen_timeout_ms + recover_timeout_ms) / 1000 + 10))); do
    [ -e "$work/injector.done" ] && break
    sleep 1
done
touch "$work/stop-samplers"
sleep 3 # the last cycles: restored devices found again
# Quiescent again: the descriptors and memory to hold against the idle phase's. nicd keeps a
# counter file open only while its directory has not changed for a second (files the simulator
# replaces are read through a fresh open), so the count breathes with the simulator's ticks for a
# few cycles after the faults: the lowest of up to 15 s of samples, taken until one is back to
# the idle count.
fd_idle=$(awk '$1 == "idle" && $6 ~ /^[0-9]+$/ {print $6}' "$work/process.log" | sort -n | awk '{v[NR] = $1} END { print (NR == 0 ? "nan" : v[int((NR + 1) / 2)]) }')
final=$(sample_process)
for _ in $(seq 30); do
    read -r _ _ _ fd_now _ <<<"$final"
    { [[ $fd_now =~ ^[0-9]+$ ]] && [[ $fd_idle =~ ^[0-9]+$ ]] && [ "$fd_now" -le $((fd_idle + fd_growth_max)) ]; } && break
    sleep 0.5
    next=$(sample_process)
    read -r _ _ _ fd_next _ <<<"$next"
    if [[ $fd_next =~ ^[0-9]+$ ]] && { ! [[ $fd_now =~ ^[0-9]+$ ]] || [ "$fd_next" -lt "$fd_now" ]; }; then final=$next; fi
done

# ---------------------------------------------------------------------------------------------
# Figures and assertions.
failures=()
fail() { failures+=("$*"); }
alive=yes
kill -0 "$nicd_pid" 2>/dev/null || alive=no
pct() { # pct P: the P-th percentile (nearest rank) of the numbers on stdin
    sort -g | awk -v p="$1" '{v[NR] = $1} END {
        if (NR == 0) { print "nan"; exit }
        i = int(p / 100 * NR + 0.999999); if (i < 1) i = 1; if (i > NR) i = NR; print v[i] }'
}
ms() { awk -v s="$1" 'BEGIN { if (s == "nan") print "nan"; else printf "%.1f", s * 1000 }'; }
median() { sort -g | awk '{v[NR] = $1} END { print (NR == 0 ? "nan" : v[int((NR + 1) / 2)]) }'; }

# Crash, restart.
[ "$alive" = yes ] || fail "nicd is gone (it crashed or exited): see $work/nicd.log"
readies=$(grep -c 'READY=1' "$work/notify.log" || true)
starts=$(grep -c ' started (root ' "$work/nicd.log" || true)
[ "$readies" = 1 ] || fail "READY=1 came $readies times (a restart?)"
[ "$starts" = 1 ] || fail "nicd logged its start $starts times (a restart?)"
backwards=$(awk '$3 != "missing" && $3 != "-" { if (last != "" && $3 < last) n++; last = $3 } END { print n + 0 }' "$work/cycles.log")
[ "$backwards" = 0 ] || fail "nicd_cycles_total went back $backwards times (a restart)"

# Faults.
injected=$(wc -l <"$work/faults.log")
seen=$(awk '$6 >= 0' "$work/faults.log" | wc -l)
recovered=$(awk '$5 == "recovered"' "$work/faults.log" | wc -l)
missed=$(awk '$5 == "missed" {printf "%s %s (%s); ", $2, $3, $4}' "$work/faults.log")
unrecovered=$(awk '$5 == "not-recovered" {printf "%s %s (%s); ", $2, $3, $4}' "$work/faults.log")
seen_p50=$(awk '$6 >= 0 {print $6}' "$work/faults.log" | pct 50)
seen_p99=$(awk '$6 >= 0 {print $6}' "$work/faults.log" | pct 99)
seen_max=$(awk '$6 >= 0 {print $6}' "$work/faults.log" | pct 100)
rec_p50=$(awk '$7 >= 0 {print $7}' "$work/faults.log" | pct 50)
rec_p99=$(awk '$7 >= 0 {print $7}' "$work/faults.log" | pct 99)
rec_max=$(awk '$7 >= 0 {print $7}' "$work/faults.log" | pct 100)
inject_errors=$(wc -l <"$work/injector.err")
[ "$faults_on" = 0 ] || [ "$injected" -gt 0 ] || fail "no fault was injected"
[ -z "$missed" ] || fail "faults nicd did not show within $((seen_timeout_ms / 1000)) s: $missed"
[ -z "$unrecovered" ] || fail "faults that did not recover within $((recover_timeout_ms / 1000)) s of their clear: $unrecovered"
[ "$inject_errors" = 0 ] || fail "nicd-sim inject failed $inject_errors times: $work/injector.err"
[ -e "$work/injector.done" ] || fail "faults were still in flight at the end"
per_fault=$(awk '{n[$2]++} END {for (f in n) printf "%s %d, ", f, n[f]}' "$work/faults.log" | sed 's/, $//')

# The textfile.
samples=$(wc -l <"$work/process.log")
invalid=$(awk '$13 != "ok"' "$work/process.log" | wc -l)
[ "$samples" -gt 0 ] || fail "no sample of the textfile was taken"
[ "$invalid" = 0 ] || fail "$invalid of $samples textfile samples were not valid (missing, promtool, nicd_up): $work/bad-*.prom"
missing=$(awk '$3 == "missing"' "$work/cycles.log" | wc -l)
[ "$missing" = 0 ] || fail "the textfile was missing $missing times"

# The cycle.
awk '$1 == "idle" && $4 != "-" {print $4}' "$work/cycles.log" >"$work/cycle-idle.txt"
awk '$1 == "load" && $4 != "-" {print $4}' "$work/cycles.log" >"$work/cycle-load.txt"
idle_n=$(wc -l <"$work/cycle-idle.txt")
load_n=$(wc -l <"$work/cycle-load.txt")
idle_p50=$(pct 50 <"$work/cycle-idle.txt")
idle_p99=$(pct 99 <"$work/cycle-idle.txt")
load_p50=$(pct 50 <"$work/cycle-load.txt")
load_p99=$(pct 99 <"$work/cycle-load.txt")
load_max=$(pct 100 <"$work/cycle-load.txt")
cycle_bound=$(awk -v p="$idle_p99" -v f=$cycle_factor -v s=$cycle_slack_s 'BEGIN { print p * f + s }')
awk -v l="$load_p99" -v b="$cycle_bound" 'BEGIN { exit !(l != "nan" && l <= b) }' ||
    fail "cycle p99 under load $(ms "$load_p99") ms > bound $(ms "$cycle_bound") ms ($cycle_factor x idle p99 $(ms "$idle_p99") ms + $(ms $cycle_slack_s) ms)"
# Cycles done under load against those due, and the longest gap between two (nicd's own times).
cycles_load=$(awk '$1 == "load" && $3 != "-" {if (first == "") first = $3; last = $3} END {print last - first}' "$work/cycles.log")
cycles_due=$(((t_end - t_load) / poll_ms))
# Between two samples, the time between nicd's own cycle timestamps over the cycles between them:
# a sampler that waited for a CPU and missed cycles does not count as a gap, a stalled cycle does.
gap_max=$(awk '$1 == "load" && $5 != "-" {
        if (pc != "" && $3 > pc && ($5 - pt) / ($3 - pc) > g) g = ($5 - pt) / ($3 - pc); pc = $3; pt = $5 }
    END { printf "%.3f", g }' "$work/cycles.log")
skipped=$(grep -c 'collection cycle still running' "$work/nicd.log" || true)
awk -v n="$cycles_load" -v d="$cycles_due" -v m=$cycle_rate_min 'BEGIN { exit !(n >= d * m) }' ||
    fail "only $cycles_load cycles under load of $cycles_due due (< $(awk -v m=$cycle_rate_min 'BEGIN {print m * 100}')%): the cycle is starved"
awk -v g="$gap_max" -v m=$cycle_gap_max_s 'BEGIN { exit !(g <= m) }' ||
    fail "two cycles $gap_max s apart under load (> $cycle_gap_max_s s): the cycle is starved"

# The watchdog.
wd_gap_ms=$(awk '$2 == "READY=1" {r = 1} r && $2 == "WATCHDOG=1" { if (p != "" && $1 - p > g) g = $1 - p; p = $1 }
                 END { printf "%.0f", g / 1000 }' "$work/notify.log")
wd_pings=$(grep -c 'WATCHDOG=1' "$work/notify.log" || true)
[ "$wd_pings" -gt 0 ] || fail "no WATCHDOG=1 arrived"
[ "$wd_gap_ms" -lt $((watchdog_usec / 1000)) ] ||
    fail "the watchdog went $wd_gap_ms ms without a ping (WATCHDOG_USEC $((watchdog_usec / 1000)) ms): the loop was starved"

# Memory after the warm-up: anonymous memory is what a leak grows (heap, stacks). The peaks of
# the two halves of what follows the warm-up, and their medians for the record.
warm_ms=$((t_load - t_start + warmup_seconds * 1000))
end_ms=$((t_end - t_start))
half_ms=$(((end_ms - warm_ms) / 2))
window() { # window FROM_MS TO_MS COLUMN: the memory samples of the load in that span
    awk -v a="$1" -v b="$2" -v c="$3" '$1 == "load" && $2 >= a && $2 <= b && $c ~ /^[0-9]+$/ {print $c}' "$work/memory.log"
}
first_n=$(window "$warm_ms" $((warm_ms + half_ms)) 3 | wc -l)
last_n=$(window $((end_ms - half_ms)) "$end_ms" 3 | wc -l)
anon_start=nan anon_end=nan anon_median_start=nan anon_median_end=nan priv_start=nan priv_end=nan anon_growth=nan
if [ "$first_n" -ge 10 ] && [ "$last_n" -ge 10 ]; then
    anon_start=$(window "$warm_ms" $((warm_ms + half_ms)) 3 | pct 100)
    anon_end=$(window $((end_ms - half_ms)) "$end_ms" 3 | pct 100)
    anon_median_start=$(window "$warm_ms" $((warm_ms + half_ms)) 3 | median)
    anon_median_end=$(window $((end_ms - half_ms)) "$end_ms" 3 | median)
    priv_start=$(window "$warm_ms" $((warm_ms + half_ms)) 4 | median)
    priv_end=$(window $((end_ms - half_ms)) "$end_ms" 4 | median)
    anon_growth=$((anon_end - anon_start))
    [ "$anon_growth" -lt $memory_growth_max_kib ] ||
        fail "anonymous memory grew by $anon_growth KiB after the warm-up (peak $anon_start -> $anon_end KiB; bound $memory_growth_max_kib KiB)"
else
    fail "only $first_n and $last_n memory samples after the warm-up: too few to judge memory"
fi
anon_slope=$(awk -v w="$warm_ms" -v e="$end_ms" '$1 == "load" && $2 >= w && $2 <= e && $3 ~ /^[0-9]+$/ {
        x = $2 / 60000; y = $3; n++; sx += x; sy += y; sxx += x * x; sxy += x * y }
    END { d = n * sxx - sx * sx; if (n < 3 || d == 0) print "nan"; else printf "%.1f", (n * sxy - sx * sy) / d }' "$work/memory.log")
read -r rss_final _ anon_final fd_final fd_journal_final fd_deleted_final <<<"$final"
anon_idle=$(awk '$1 == "idle" && $3 ~ /^[0-9]+$/ {print $3}' "$work/memory.log" | median)

# Descriptors: after the load, with every fault cleared and every device back, as many as in the
# idle phase (during the load a removed device's are closed, so the count moves with the faults);
# none left on a journal file the vacuum deleted.
fd_load_min=$(awk '$1 == "load" && $6 ~ /^[0-9]+$/ {print $6}' "$work/process.log" | pct 0)
fd_load_max=$(awk '$1 == "load" && $6 ~ /^[0-9]+$/ {print $6}' "$work/process.log" | pct 100)
fd_journal_max=$(awk '$1 == "load" && $7 ~ /^[0-9]+$/ {print $7}' "$work/process.log" | pct 100)
fd_deleted_max=$(awk '$1 == "load" && $8 ~ /^[0-9]+$/ {print $8}' "$work/process.log" | pct 100)
if [[ $fd_final =~ ^[0-9]+$ ]] && [[ $fd_idle =~ ^[0-9]+$ ]]; then
    fd_growth=$((fd_final - fd_idle))
    [ "$fd_growth" -le $fd_growth_max ] ||
        fail "open file descriptors grew by $fd_growth over the soak ($fd_idle idle -> $fd_final after the load, journal files apart; bound $fd_growth_max)"
    [ "$fd_deleted_final" = 0 ] ||
        fail "$fd_deleted_final descriptors still open on deleted journal files after the load"
else
    fail "nicd's descriptors could not be counted (idle '$fd_idle', after the load '$fd_final')"
    fd_growth=nan
fi

# The event ring.
events_max=$(awk '$9 ~ /^[0-9]+$/ {print $9}' "$work/process.log" | pct 100)
last_seq=$(awk '$10 ~ /^[0-9]+$/ {s = $10} END {print s + 0}' "$work/process.log")
[ "$events_max" != nan ] || fail "GetEvents never answered the sampler"
[ "$events_max" = nan ] || [ "$events_max" -le $ring_size ] ||
    fail "GetEvents returned $events_max events, more than EventRingSize=$ring_size"
ring_wrapped=no
[ "$last_seq" -gt $ring_size ] && ring_wrapped=yes

# The clients.
cat "$work"/client-*.log >"$work/calls.log" 2>/dev/null || : >"$work/calls.log"
calls=$(wc -l <"$work/calls.log")
call_errors=$(awk '$3 != "ok"' "$work/calls.log" | wc -l)
# A call to a device a fault removed, or Verify while it went away, is answered with an error:
# expected. A call that timed out, got no reply or found no nicd on the bus is not.
bad_calls=$(grep -cE ' error .*(Timeout|timed out|NoReply|ServiceUnknown|NameHasNoOwner|Disconnected|not activatable)' "$work/calls.log" || true)
[ "$clients" = 0 ] || [ "$calls" -gt 0 ] || fail "the D-Bus clients made no call"
[ "$bad_calls" = 0 ] || fail "$bad_calls D-Bus calls timed out or found nicd gone: grep error $work/calls.log"
call_p99=$(awk '{print $2}' "$work/calls.log" | pct 99)
call_max=$(awk '{print $2}' "$work/calls.log" | pct 100)
per_method=$(awk '{n[$1]++} END {for (m in n) printf "%s %d, ", m, n[m]}' "$work/calls.log" | sed 's/, $//')
# The three commonest error messages, device names folded.
error_kinds=$(awk '$3 != "ok" { $1 = $2 = $3 = ""; print }' "$work/calls.log" | sed -E 's/mlx5_[0-9]+/DEV/g; s/^ +//; s/ +$//' |
    sort | uniq -c | sort -rn | head -3 | awk '{ c = $1; $1 = ""; printf "%s x%d; ", substr($0, 2), c }' | sed 's/; $//')

# nicd's CPU (share of one core) in each phase, from the first to the last sample of the phase.
cpu_share() {
    awk -v p="$1" -v hz="$(getconf CLK_TCK)" '$1 == p && $12 ~ /^[0-9]+$/ {
            if (t0 == "") { t0 = $2; c0 = $12 } t1 = $2; c1 = $12 }
        END { if (t1 == "" || t1 == t0) print "nan"; else printf "%.0f%%", (c1 - c0) / hz / ((t1 - t0) / 1000) * 100 }' "$work/process.log"
}
cpu_idle=$(cpu_share idle)
cpu_load=$(cpu_share load)
state_max=$(awk '$11 ~ /^[0-9]+$/ {print $11}' "$work/process.log" | pct 100)
journal_lines_written=$(cat "$work/journal.count" 2>/dev/null || echo 0)
nicd_warnings=$(grep -c '^W ' "$work/nicd.log" || true)
nicd_errors=$(grep -c '^E ' "$work/nicd.log" || true)
state_size=$(stat -c %s "$root/var/lib/nicd/state.json" 2>/dev/null || echo 0)
load_s=$(((t_end - t_load) / 1000))

{
    echo "== soak figures: $devices devices, $load_s s under load after $idle_seconds s idle (seed $seed)"
    echo "nicd:           PID $nicd_pid alive at the end: $alive; READY=1 x$readies; started x$starts; warnings $nicd_warnings, errors $nicd_errors logged; CPU idle $cpu_idle, under load $cpu_load of a core"
    echo "faults:         injected $injected, seen $seen, recovered $recovered ($per_fault)"
    echo "                seen after p50 $seen_p50 ms, p99 $seen_p99 ms, max $seen_max ms; recovered after the clear p50 $rec_p50 ms, p99 $rec_p99 ms, max $rec_max ms"
    echo "cycle time:     idle p50 $(ms "$idle_p50") ms, p99 $(ms "$idle_p99") ms ($idle_n cycles); under load p50 $(ms "$load_p50") ms, p99 $(ms "$load_p99") ms, max $(ms "$load_max") ms ($load_n cycles sampled); bound $(ms "$cycle_bound") ms"
    echo "cycle rate:     $cycles_load cycles under load of $cycles_due due; longest gap $gap_max s; $skipped skipped (one still running)"
    echo "watchdog:       $wd_pings pings, longest gap $wd_gap_ms ms (WATCHDOG_USEC $((watchdog_usec / 1000)) ms)"
    echo "memory:         anonymous peak $anon_start -> $anon_end KiB over two $((half_ms / 1000)) s halves after a $warmup_seconds s warm-up: growth $anon_growth KiB (medians $anon_median_start -> $anon_median_end KiB; trend $anon_slope KiB/min); idle $anon_idle KiB, after the load $anon_final KiB"
    echo "                private $priv_start -> $priv_end KiB (journal maps included); RSS after the load $rss_final KiB"
    echo "descriptors:    idle $fd_idle, after the load $fd_final (growth $fd_growth), under load $fd_load_min..$fd_load_max as devices go and come back; on journal files at most $fd_journal_max (after the load $fd_journal_final), on deleted ones at most $fd_deleted_max (after the load $fd_deleted_final)"
    echo "event ring:     GetEvents at most $events_max events (EventRingSize $ring_size); last seq $last_seq; wrapped: $ring_wrapped"
    echo "textfile:       $samples samples, $invalid invalid (promtool check metrics, nicd_up 1)"
    echo "D-Bus clients:  $clients clients, $calls calls ($per_method); errors $call_errors${error_kinds:+ ($error_kinds)}, $bad_calls timed out or unanswered; latency p99 $call_p99 ms, max $call_max ms"
    echo "journal:        $journal_lines_written kernel lines written ($journal_rate/s); state file $state_size bytes (max $state_max)"
} | tee "$work/figures.txt"

if [ "${#failures[@]}" -gt 0 ]; then
    echo "soak: FAILED"
    printf '  - %s\n' "${failures[@]}"
    exit 1
fi
echo "soak: passed"
result=0
