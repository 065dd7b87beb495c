#!/usr/bin/env bash
# Where a cycle of a running nicd goes, after make bench has measured its CPU (the tools used here
# slow it down): system calls per cycle (strace -c on every thread), allocations per cycle (a
# uprobe on libc's malloc, counted by perf stat) and the share of each stage of the cycle in the
# CPU samples of every thread (perf record with DWARF call graphs, then the inclusive share of each stage's function).
# Needs root, strace and perf; says what it leaves out otherwise.
#
#   scripts/bench-profile.sh NICD_PID TEXTFILE WORK_DIR   (NICD_PROFILE_SECONDS: each, default 10)
set -euo pipefail
pid=$1 textfile=$2 work=$3
seconds=${NICD_PROFILE_SECONDS:-10}
cycles_in() { awk '$1 == "nicd_cycles_total" {print $2}' "$1" 2>/dev/null || true; }
per_cycle() { awk -v n="$1" -v c="$2" 'BEGIN { printf "%.0f", (c > 0 ? n / c : 0) }'; }
[ "$(id -u)" = 0 ] || { echo "profile: not root: left out"; exit 0; }
echo "== where a cycle goes (64 devices; each for $seconds s on the nicd above)"

# System calls, on every thread of nicd (strace -f follows only threads started after it attached).
if command -v strace >/dev/null; then
    tasks=()
    for t in /proc/"$pid"/task/*; do tasks+=(-p "${t##*/}"); done
    c0=$(cycles_in "$textfile")
    timeout -s INT "$seconds" strace -c -f -q "${tasks[@]}" -o "$work/strace.out" 2>/dev/null || true
    c1=$(cycles_in "$textfile")
    n=$((c1 - c0))
    [ "$n" -gt 0 ] || n=1 # no cycle under strace: the counts of the whole time
    awk -v c="$n" '$1 ~ /^[0-9.]+$/ && NF >= 5 && $NF != "total" { printf "%.0f %s\n", $4 / c, $NF }' "$work/strace.out" |
        sort -rn >"$work/syscalls.txt"
    echo "system calls:  $(awk '{ s += $1 } END { print s }' "$work/syscalls.txt") per cycle ($n cycles under strace):" \
        "$(head -8 "$work/syscalls.txt" | awk '{ printf "%s%s %s", (NR > 1 ? ", " : ""), $2, $1 }')"
else
    echo "system calls:  strace is not installed: left out"
fi

# Allocations: a uprobe on malloc (operator new calls it), removed afterwards.
perf probe -q -d 'probe_libc:malloc' 2>/dev/null || true # one a run before left behind
libc=$(awk '/\/libc\.so\.6$/ {print $6; exit}' /proc/"$pid"/maps)
if command -v perf >/dev/null && [ -n "$libc" ] && perf probe -q -x "$libc" malloc 2>/dev/null; then
    c0=$(cycles_in "$textfile")
    perf stat -x, -e probe_libc:malloc -p "$pid" -o "$work/malloc.out" -- sleep "$seconds" 2>/dev/null || true
    c1=$(cycles_in "$textfile")
    perf probe -q -d probe_libc:malloc 2>/dev/null || true
    mallocs=$(awk -F, '/probe_libc:malloc/ {print $1}' "$work/malloc.out")
    echo "allocations:   $(per_cycle "${mallocs:-0}" $((c1 - c0))) malloc calls per cycle ($((c1 - c0)) cycles)"
else
    echo "allocations:   perf cannot place a uprobe on malloc here: left out"
fi

# Stages: the inclusive share of each stage's function in the samples of every thread. The reads
# of counters and plugins run on the deadline lanes' threads (DeadlineRunner), the rest on the
# main thread.
if command -v perf >/dev/null &&
    perf record -q -F 2999 --call-graph dwarf,16384 -p "$pid" -o "$work/perf.data" -- sleep "$seconds" >/dev/null 2>&1; then
    perf report -i "$work/perf.data" --children --stdio -g none --sort sym --percent-limit 0.1 \
        2>/dev/null >"$work/perf.txt" || true
    # the inclusive share of the samples under a function (the symbol, matched whole; the stage's
    # namespace, nicd::collect:: and the like, whatever it is)
    share() {
        awk -v re="^($1)\$" '$1 ~ /%$/ { sym = $0; sub(/^ *[0-9.]+% +[0-9.]+% +\[[.k]\] /, "", sym)
                                             if (sym ~ re && $1 + 0 > m) m = $1 + 0 }
                              END { printf "%.0f%%", m }' "$work/perf.txt"
    }
    echo "stages:        counter and plugin reads (deadline lanes) $(share 'nicd::([a-z_]+::)?DeadlineRunner::Lane::serve')," \
        "inventory, port and netdev states, sources (collector thread) $(share 'nicd::([a-z_]+::)?Worker::run')"
    echo "               main thread $(share 'nicd::([a-z_]+::)?DaemonApp::finishCycle'): health rules $(share 'nicd::([a-z_]+::)?DaemonApp::judge')," \
        "textfile $(share 'nicd::([a-z_]+::)?TextfileSink::write'), D-Bus $(share 'nicd::([a-z_]+::)?BusService::publish')," \
        "state file $(share 'nicd::([a-z_]+::)?DaemonApp::saveState')"
    echo "               of all: in system calls $(share 'entry_SYSCALL_64(_after_hwframe)?')," \
        "in malloc $(share '(__libc_)?malloc'), in free $(share '(__libc_)?free|cfree') (shares of the CPU samples of every thread)"
else
    echo "stages:        perf record does not run here: left out"
fi
