#!/usr/bin/env bash
# Slurm drain and resume from nicd's verdict, with the real daemons on localhost: munged on a
# private socket with a generated key, slurmctld and slurmd (Debian's slurm-wlm) from a generated
# slurm.conf for this one node, and nicd on a simulated node on a private D-Bus. slurmd runs the
# shipped health check (etc/slurm/nicd-slurm-health-check → nicctl slurm-check) as its
# HealthCheckProgram; the test also runs it directly, as slurmd does, so as not to wait for
# slurmd's interval. A degraded compute port → only a line in slurmd's log; a compute NIC's link
# goes down → sinfo -R shows "nicd: mlx5_1/1 port_down check_cable" (slurmd's own run) and the
# prolog refuses jobs; the link comes back and nicd is healthy for ResumeAfterSec → resumed; an
# administrator's drain → left alone, fatal or healthy; nicd stopped → no drain, and the line in
# slurmd's log.
set -euo pipefail
src=${NICD_SOURCE_DIR:?}
build=${NICD_BUILD_DIR:?}
for tool in munged slurmctld slurmd scontrol sinfo; do
    if ! command -v "$tool" >/dev/null && ! [ -x "/usr/sbin/$tool" ]; then
        echo "SKIP: $tool is not installed (Debian: apt-get install munge slurm-wlm)"
        exit 77
    fi
done
export PATH=$PATH:/usr/sbin
# shellcheck source=support/servers.sh
source "$(dirname "$0")/support/servers.sh"
# shellcheck source=../../scripts/lib/private_bus.sh
source "$src/scripts/lib/private_bus.sh"

fail() {
    echo "FAIL: $*"
    for log in "$work"/*.log; do
        echo "--- $log"
        tail -n 15 "$log"
    done
    exit 1
}

node=$(hostname -s)
sim=$build/tools/nicd-sim/nicd-sim
root=$work/node
"$sim" create "$root" >/dev/null

# munged on a private socket with a key made here.
mkdir -m 0700 "$work/munge"
chmod 0755 "$work"
head -c 1024 /dev/urandom >"$work/munge/munge.key"
chmod 0400 "$work/munge/munge.key"
munge_socket=$work/munge/munge.socket
job munged --foreground --force --socket="$munge_socket" --key-file="$work/munge/munge.key" \
    --pid-file="$work/munge/munged.pid" --seed-file="$work/munge/seed" \
    --log-file="$work/munged.log" >"$work/munged.out.log" 2>&1
for _ in $(seq 100); do [ -S "$munge_socket" ] && break; sleep 0.1; done
[ -S "$munge_socket" ] || fail "munged did not start"

# nicd on a private bus with the system bus's policy and nicd's own policy file.
bus="unix:path=$work/bus.socket"
private_bus_conf "$bus" "$src/dbus/io.nicd.Nicd1.conf" >"$work/bus.conf"
job dbus-daemon --nofork --nopidfile --config-file="$work/bus.conf" >"$work/dbus.log" 2>&1
for _ in $(seq 100); do [ -S "$work/bus.socket" ] && break; sleep 0.1; done
# link_downed is left out: every link-down below raises it too, and it holds a port fatal for 10
# minutes from the counter read that sees it (a read every 30 s), so whether steps 3-5 find the
# node healthy would depend on where that read falls. This test is about the drain, not that hold.
printf '[daemon]\nPollIntervalMs=300\nStateDirectory=%s\n[provision]\nMode=off\n[signals]\nEnable=no\n[counter:link_downed]\nEnable=no\n' \
    "$work/nicd-state" >"$work/nicd.conf"
start_nicd() {
    job "$build/daemon/nicd" --root "$root" --config "$work/nicd.conf" \
        --plugin-directory "$build/plugins" --bus "$bus" --log-level warn >>"$work/nicd.log" 2>&1
    nicd_pid=$job_pid
}
start_nicd

# The settings and the health check as slurmd runs it: the shipped wrapper, with the test's
# nicctl, bus, settings and slurm.conf (slurmd gives a health check only SLURMD_NODENAME).
resume_after=5
cat >"$work/slurm-check.conf" <<CONF
ResumeAfterSec=$resume_after
StateFile=$work/slurm-check/state
CONF
cat >"$work/health-check" <<SH
#!/bin/sh
export SLURM_CONF=$work/slurm.conf NICCTL=$build/tools/nicctl/nicctl NICD_BUS=$bus
export NICD_SLURM_CHECK_CONF=$work/slurm-check.conf
exec $src/etc/slurm/nicd-slurm-\${1:-health-check}
SH
chmod +x "$work/health-check"

mkdir -p "$work/state" "$work/spool"
cat >"$work/slurm.conf" <<CONF
ClusterName=nicdtest
SlurmctldHost=localhost
SlurmctldPort=$(freeport)
SlurmdPort=$(freeport)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$munge_socket
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/linear
MpiDefault=none
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
HealthCheckProgram=$work/health-check
HealthCheckInterval=2
HealthCheckNodeState=ANY
NodeName=ghost NodeAddr=127.0.0.2 CPUs=1 State=UNKNOWN
NodeName=$node NodeAddr=127.0.0.1 CPUs=1 State=UNKNOWN
NodeSet=gpus Nodes=$node,ghost
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$work/slurm.conf
job slurmctld -D -i >"$work/slurmctld.out.log" 2>&1
for _ in $(seq 100); do scontrol ping 2>/dev/null | grep -q UP && break; sleep 0.1; done
job slurmd -D >"$work/slurmd.out.log" 2>&1

# reason: the node's drain reason as sinfo -R shows it ("" none).
reason() { sinfo -h -R -n "$node" -o '%E' 2>/dev/null | head -n 1; }
state() { sinfo -h -N -n "$node" -o '%T' 2>/dev/null | head -n 1; }
wait_for() { # wait_for WHAT CMD...: up to 60 s until CMD succeeds
    local what=$1
    shift
    for _ in $(seq 600); do "$@" && return 0; sleep 0.1; done
    fail "$what (state $(state), reason '$(reason)')"
}
reason_is() { [ "$(reason)" = "$1" ]; }
state_is() { [[ "$(state)" == $1 ]]; }
nicd_says() { "$build/tools/nicctl/nicctl" --bus "$bus" status >/dev/null 2>&1; [ $? -eq "$1" ]; }
check() { SLURMD_NODENAME=$node "$work/health-check" "$@" 2>&1; }
# True once the health check has seen nicd healthy for ResumeAfterSec (its state file).
healthy_long_enough() {
    local since
    since=$(sed -n 's/^healthy_since=//p' "$work/slurm-check/state" 2>/dev/null)
    [ -n "$since" ] && [ $(($(date +%s) - since)) -ge "$resume_after" ]
}

wait_for "slurmd registers the node idle" state_is idle
wait_for "nicd judges the simulated node healthy" nicd_says 0
out=$(check) || fail "healthy node: health check exit $?: $out"
[ -z "$(reason)" ] || fail "a healthy node is drained: $(reason)"
check prolog >/dev/null || fail "the prolog refuses a job on a healthy node"

# 1. A degraded compute port (trained at half its peers' rate): logged, not drained.
"$sim" inject "$root" rate-downtrain mlx5_1
wait_for "nicd judges the node degraded" nicd_says 1
set +e
out=$(check)
rc=$?
set -e
[ "$rc" -eq 4 ] || fail "a degraded node's health check exits $rc, not 4: $out"
# (port_rate_degraded of mlx5_1/1, or the node's inventory_slow.compute when nicd has judged only
# that yet)
grep -Eq 'degraded: (mlx5_1/1|node) [a-z_.]+ check_cable \(not drained: DrainOn=fatal\)' <<<"$out" ||
    fail "said: $out"
wait_for "slurmd logs the degraded line" \
    grep -q 'health_check failed: rc:4 output:nicd-slurm-check: .*degraded' "$work/slurmd.log"
[ -z "$(reason)" ] || fail "a degraded node is drained: $(reason)"
check prolog >/dev/null || fail "the prolog refuses a job on a degraded node (DrainOn=fatal)"
"$sim" inject "$root" rate-downtrain-clear mlx5_1
wait_for "nicd judges the node healthy again" nicd_says 0

# 2. A compute port goes down: slurmd's own run of the health check drains the node.
"$sim" inject "$root" link-down mlx5_1
wait_for "slurmd's health check drains the node" reason_is "nicd: mlx5_1/1 port_down check_cable"
echo "drained by slurmd's health check: $(sinfo -R -n "$node" -o '%E|%T' | tail -n 1)"
set +e
out=$(check prolog)
rc=$?
set -e
[ "$rc" -eq 1 ] || fail "the prolog of a fatal node exits $rc, not 1: $out"
grep -q 'refusing the job: nicd: mlx5_1/1 port_down check_cable' <<<"$out" || fail "prolog said: $out"

# 2b. slurm-check acts on its own node only: asked to act on ALL or on a NodeSet name while this
# node is fatal, it refuses before scontrol update (exit 2), and the other node (ghost, a second
# node of slurm.conf that never registers) keeps its reason.
ghost_reason() { scontrol show node ghost 2>/dev/null | sed -n 's/^ *Reason=//p'; }
ghost_before=$(ghost_reason)
for name in ALL all gpus; do
    set +e
    out=$(SLURM_CONF=$work/slurm.conf NICCTL=$build/tools/nicctl/nicctl NICD_BUS=$bus \
        NICD_SLURM_CHECK_CONF=$work/slurm-check.conf "$src/etc/slurm/nicd-slurm-health-check" \
        --node "$name" 2>&1)
    rc=$?
    set -e
    [ "$rc" -eq 2 ] || fail "slurm-check --node $name exits $rc, not 2: $out"
    case $name in
    ALL | all) grep -q 'no Slurm node name' <<<"$out" || fail "--node $name said: $out" ;;
    # scontrol shows a NodeSet as its nodes, or (Slurm 22.05) not at all: refused either way
    *) grep -Eq 'names 2 nodes|Node gpus not found' <<<"$out" || fail "--node $name said: $out" ;;
    esac
done
ghost_after=$(ghost_reason)
case $ghost_after in
nicd:*) fail "slurm-check drained another node: ghost's reason is '$ghost_after' (was '$ghost_before')" ;;
esac

# 3. The link comes back: the node is resumed once nicd has been healthy for ResumeAfterSec.
"$sim" inject "$root" link-up mlx5_1
wait_for "nicd judges the node healthy again" nicd_says 0
check >/dev/null || true
# Not resumed before ResumeAfterSec (the reason is read first: on a slow machine the time may
# have passed by now, and then there is nothing to tell).
before=$(reason)
healthy_long_enough || [ "$before" = "nicd: mlx5_1/1 port_down check_cable" ] ||
    fail "resumed before ResumeAfterSec: '$before'"
wait_for "the node is resumed" reason_is ""
wait_for "the node is idle" state_is 'idle*'

# 4. An administrator's drain is never touched: not while fatal, not when healthy.
scontrol update nodename="$node" state=drain reason="admin: hw swap"
"$sim" inject "$root" link-down mlx5_1
wait_for "nicd judges the node fatal" nicd_says 2
out=$(check) && fail "a fatal node's health check exits 0"
grep -q 'drained by someone else ("admin: hw swap"): left alone' <<<"$out" || fail "said: $out"
"$sim" inject "$root" link-up mlx5_1
wait_for "nicd judges the node healthy again" nicd_says 0
check >/dev/null
wait_for "nicd healthy for ResumeAfterSec" healthy_long_enough
check >/dev/null
reason_is "admin: hw swap" || fail "the admin's drain was changed to '$(reason)'"
scontrol update nodename="$node" state=resume

# 5. nicd stopped: no drain, and slurmd's log says why.
kill "$nicd_pid"
wait "$nicd_pid" 2>/dev/null || true
set +e
out=$(check)
rc=$?
set -e
[ "$rc" -eq 3 ] || fail "nicd unreachable: health check exit $rc, not 3: $out"
grep -q 'cannot ask nicd: .*the node is not drained (Unreachable=ignore)' <<<"$out" || fail "said: $out"
wait_for "slurmd logs the health check's line" \
    grep -q 'health_check failed: rc:3 output:nicd-slurm-check: .*cannot ask nicd' "$work/slurmd.log"
[ -z "$(reason)" ] || fail "nicd unreachable drained the node: $(reason)"
check prolog >/dev/null || fail "the prolog refuses a job when nicd cannot be asked (Unreachable=ignore)"
echo "PASS"
