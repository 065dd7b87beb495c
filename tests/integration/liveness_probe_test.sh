#!/usr/bin/env bash
# The DaemonSet's liveness probe (deploy/image/nicd-liveness) on nicd's heartbeat: fresh passes;
# stale, in the future, a FIFO (within its time limit, not hanging), a link, a directory, no number,
# too many digits and no file fail. Then on a real nicd: the heartbeat nicd writes in its run
# directory passes the probe while it cycles and fails it once its loop stops (SIGSTOP).
set -euo pipefail
src=${NICD_SOURCE_DIR:?}
build=${NICD_BUILD_DIR:?}
# shellcheck source=../../scripts/lib/jobs.sh
. "$src/scripts/lib/jobs.sh"
jobs_work_dir nicd-liveness
probe=$src/deploy/image/nicd-liveness
fail=0
expect() { # expect RC WHAT FILE [MAX_AGE]
    local want=$1 what=$2 rc=0 out start
    shift 2
    start=$(date +%s)
    out=$(timeout 20 sh "$probe" "$@" 2>&1) || rc=$?
    if [ "$rc" != "$want" ]; then
        echo "FAIL: $what: the probe exits $rc, not $want: $out"
        fail=1
    elif [ $(($(date +%s) - start)) -gt 8 ]; then
        echo "FAIL: $what: the probe took $(($(date +%s) - start)) s"
        fail=1
    else
        echo "ok: $what: $out"
    fi
}

beat=$work/heartbeat
date +%s >"$beat"
expect 0 "a fresh beat" "$beat" 300
echo $(($(date +%s) - 400)) >"$beat"
expect 1 "a beat 400 s old" "$beat" 300
echo $(($(date +%s) + 3600)) >"$beat"
expect 1 "a beat an hour in the future" "$beat" 300
echo 99999999999999999999 >"$beat"
expect 1 "too many digits" "$beat" 300
echo "nicd_up 1" >"$beat"
expect 1 "no number" "$beat" 300
: >"$beat"
expect 1 "an empty file" "$beat" 300
mkfifo "$work/fifo"
expect 1 "a FIFO (nothing writes it)" "$work/fifo" 300
date +%s >"$work/elsewhere"
ln -s "$work/elsewhere" "$work/link"
expect 1 "a link to a fresh beat" "$work/link" 300
mkdir "$work/dir"
expect 1 "a directory" "$work/dir" 300
expect 1 "no file" "$work/missing" 300

# nicd's own heartbeat: <root>/run/nicd/heartbeat.
"$build/tools/nicd-sim/nicd-sim" create "$work/node" --channels 1 >/dev/null
printf '[daemon]\nPollIntervalMs=500\n[provision]\nMode=off\n' >"$work/nicd.conf"
job "$build/daemon/nicd" --root "$work/node" --config "$work/nicd.conf" \
    --plugin-directory "$build/plugins" --no-dbus --log-level warn >"$work/nicd.log" 2>&1
nicd_pid=$job_pid
heartbeat=$work/node/run/nicd/heartbeat
for _ in $(seq 100); do [ -s "$heartbeat" ] && break; sleep 0.1; done
expect 0 "nicd's heartbeat while it cycles" "$heartbeat" 3
kill -STOP "$nicd_pid"
sleep 5
expect 1 "nicd's heartbeat once its loop stopped" "$heartbeat" 3
kill -CONT "$nicd_pid"
for _ in $(seq 50); do sh "$probe" "$heartbeat" 3 >/dev/null 2>&1 && break; sleep 0.1; done
expect 0 "nicd's heartbeat once it goes on" "$heartbeat" 3
[ "$fail" -eq 0 ] && echo PASS
exit "$fail"
