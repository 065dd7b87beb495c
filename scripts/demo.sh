#!/usr/bin/env bash
# make demo: a simulated GPU node, nicd watching it, a fault injected, and what nicd saw.
set -euo pipefail

build=${1:-build}
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/scripts/lib/private_bus.sh"
. "$here/scripts/lib/jobs.sh"
build=$(cd "$here/$build" && pwd)
nicd=$build/daemon/nicd
sim=$build/tools/nicd-sim/nicd-sim
jobs_work_dir nicd-demo
root=$work/node

bold() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
textfile=$root/var/lib/prometheus/node-exporter/nicd.prom
wait_for() { # wait up to $2 tenths of a second for the textfile to hold the text $1
    for _ in $(seq "$2"); do
        grep -qF -- "$1" "$textfile" 2>/dev/null && return 0
        sleep 0.1
    done
}
wait_cycles() { # wait until the textfile has been rewritten $1 more times
    local n=$1 before
    for _ in $(seq "$n"); do
        before=$(stat -c %Y.%s "$textfile" 2>/dev/null || echo none)
        for _ in $(seq 100); do
            [ "$(stat -c %Y.%s "$textfile" 2>/dev/null || echo none)" != "$before" ] && break
            sleep 0.1
        done
        sleep 0.1
    done
}

bold "1. A simulated node: ConnectX-7 and Broadcom BCM57608 (bnxt_re) RoCE PFs, an InfiniBand port, a RoCE LAG, a VF, a down port"
"$sim" create "$root" --vendor mlx5,bnxt
"$sim" list "$root"

cat >"$work/nicd.conf" <<CONF
[daemon]
PollIntervalMs=1000
PmaIntervalMs=2000
[provision]
VerifyIntervalSec=5
[signals]
IntervalSec=2
[health]
# A short congestion window so the demo's verdicts change within seconds (default 60).
CongestionWindowSec=5
# A link down this long with its link-down counters still is link_drop: 5 s so the demo shows one
# within seconds (default 240, gpud's 4 minutes).
DropSec=5
# The fleet's firmware baseline: ConnectX-7 cards (board MT_0000000838) run 28.40.1000 or later.
FirmwareMin=MT_0000000838:28.40.1000
CONF

# A private bus with the system bus's default policy and nicd's own policy file.
bus_dir=$work/bus
mkdir -p "$bus_dir"
bus="unix:path=$bus_dir/socket"
private_bus_conf "$bus" "$here/dbus/io.nicd.Nicd1.conf" >"$bus_dir/bus.conf"
nicctl() { "$build/tools/nicctl/nicctl" --bus "$bus" "$@"; }

bold "2. nicd --once --dry-run: what provisioning would change on this fresh node (nothing is written)"
{ "$nicd" --root "$root" --config "$work/nicd.conf" --plugin-directory "$build/plugins" --no-dbus --once --dry-run --log-level warn || true; } |
    sed -n '/^QoS/,/^plugin/p' | grep -v '^plugin'

bold "3. nicd as a daemon on a private D-Bus: its mlx5 and bnxt plugins provision DSCP trust, PFC 3 and ToS 106"
job dbus-daemon --nofork --nopidfile --config-file="$bus_dir/bus.conf"
for _ in $(seq 50); do [ -S "$bus_dir/socket" ] && break; sleep 0.1; done
job "$sim" run "$root" --interval-ms 500
job "$nicd" --root "$root" --config "$work/nicd.conf" --plugin-directory "$build/plugins" --bus "$bus" 2>"$work/nicd.log"
nicd_pid=$job_pid
wait_cycles 3
echo "textfile: $textfile ($(grep -c '^nicd_' "$textfile") samples)"
grep -E '^nicd_(up|port_state|port_health|qos_compliant)\b' "$textfile" | head -24
echo
echo "$ nicctl status"
nicctl status || true

bold "4. Drift: another tool moves PFC on mlx5_1 to priority 4, drops DSCP trust and turns ECN off"
"$sim" inject "$root" qos-drift mlx5_1
"$sim" inject "$root" ecn-drift mlx5_1
echo "$ nicctl verify   (anyone may verify)"
nicctl verify | grep -E '^(PORT|mlx5_1/)' || true
wait_cycles 2
echo "nicd repaired it (Mode=enforce):"
grep -E 'drift|changed netdev ens2f0np0|changed mlx5_1 port 1' "$work/nicd.log" | tail -7 || true
grep -E '^nicd_qos_compliant\{device="mlx5_1"' "$textfile" || true

bold "5. Before the failure: mlx5_2's FEC corrects more and more bits while its link is still up"
"$sim" inject "$root" fec-degrade mlx5_2
wait_for 'nicd_condition_active{device="mlx5_2",port="1",code="fec_margin"' 200 # two FEC reads ([signals] IntervalSec=2) with traffic between them
sleep 2.5 # one more FEC read: the first window may have begun before the fault
grep -E '^nicd_(port_state|fec_pre_ber_ratio|fec_pre_ber_limit_ratio|fec_uncorrectable_blocks_total)\{device="mlx5_2"' "$textfile" || true
echo
echo "$ nicctl show mlx5_2   (the link is ACTIVE, no packet lost yet: the FEC margin is running out)"
nicctl show mlx5_2 || true

bold "5b. Congestion: the switch stops ECN-marking bnxt_re0's traffic, so PFC alone holds it back"
echo "before: every RoCE port busy with ECN marks and CNPs flowing (DCQCN at work), and ECN enabled"
grep -E '^nicd_qos_compliant\{device="bnxt_re0".*setting="ecn_(np|rp)"' "$textfile" || true
"$sim" inject "$root" congest-pfc-only bnxt_re0
wait_for 'nicd_port_congestion_state{device="bnxt_re0",port="1",state="pfc_only"} 1' 100
grep -E '^nicd_port_congestion_state\{device="(mlx5_[0-2]|bnxt_re0)",port="1",state="[a-z_]+"\} 1' "$textfile" || true
grep -E '^nicd_port_paused_ratio\{device="bnxt_re0",port="1",direction="rx"\}' "$textfile" || true
echo "$ nicctl status   (the CONGESTION column)"
nicctl status | grep -E '^(DEVICE|mlx5_[0-2] |bnxt_re0 )' || true
"$sim" inject "$root" congest-pfc-only-clear bnxt_re0

bold "5c. Readiness: the link is up, but NCCL could not use mlx5_1: its netdev lost its IP address"
"$sim" inject "$root" gid-missing mlx5_1
wait_for 'nicd_port_ready{device="mlx5_1",port="1"} 0' 100 # read on the slow interval ([signals] IntervalSec=2)
grep -E '^nicd_port_ready\{' "$textfile" || true
echo "$ nicctl status   (the READY column)"
nicctl status | grep -E '^(DEVICE|mlx5_[0-2] |bnxt_re0 )' || true
echo "$ nicctl show mlx5_1   (each readiness check and what it saw)"
nicctl show mlx5_1 | sed -n '/ready:/,$p' || true
"$sim" inject "$root" gid-missing-clear mlx5_1

bold "5d. The switch side: leaf-01, at the other end of mlx5_0's cable, now enables PFC on 3 and 4"
echo "(what the host's lldpd hears: the simulator's twin of it; the SWITCH column is where each cable goes)"
"$sim" inject "$root" switch-pfc mlx5_0 3,4
wait_for 'code="qos.switch_mismatch"' 100 # the neighbours are read on the slow interval
grep -E '^nicd_port_neighbor_info\{device="mlx5_[01]"' "$textfile" || true
echo "$ nicctl status   (the SWITCH column)"
nicctl status | grep -E '^(DEVICE|mlx5_[0-2] )' || true
echo "$ nicctl verify   (what the switch advertises beside what the host has)"
nicctl verify | grep -E '^(PORT|mlx5_0/1 +(pfc|trust|roce_tos) )' | sed -E 's/ {2,}/  /g' || true
"$sim" inject "$root" switch-pfc-clear mlx5_0

bold "6. Fault: mlx5_2 then loses its link, and mlx5_0 gets a burst of symbol errors"
"$sim" inject "$root" link-down mlx5_2
"$sim" inject "$root" errors mlx5_0 symbol_error 500
wait_cycles 2
echo "$ nicctl events | grep mlx5_2   (nicd said so before the link went down)"
nicctl events | grep 'mlx5_2' || true
echo "what nicd publishes now:"
grep -E '^nicd_(port_state|netdev_up|port_health)\{device="mlx5_2"' "$textfile" || true
grep -E '^nicd_ib_port_pma_total\{.*device="mlx5_0".*counter="symbol_error"' "$textfile" || true
grep -E '^nicd_port_health\{device="mlx5_0"' "$textfile" || true
echo "active conditions:"
grep -E '^nicd_condition_active' "$textfile" || true

bold "6b. Fault: mlx5_3's InfiniBand link drops and never trains again (DropSec=5 in this demo's nicd.conf; the default is 240 s)"
echo "$ nicd-sim inject NODE link-drop mlx5_3   (phys_state Polling, its link-down counters do not move)"
"$sim" inject "$root" link-drop mlx5_3
wait_for 'nicd_condition_active{device="mlx5_3",port="1",code="link_drop"' 150
grep -E '^nicd_(port_state|port_health)\{device="mlx5_3"' "$textfile" || true
grep -E '^nicd_condition_active\{device="mlx5_3"' "$textfile" || true
echo "$ nicctl show mlx5_3   (port_down said it went down; link_drop that it never came back)"
nicctl show mlx5_3 | grep -E 'link_drop|port_down' || true

bold "7. Fault: mlx5_1's firmware stops answering (a command timeout in the kernel log), and bnxt_re0's RoCE firmware channel stalls"
echo "$ nicd-sim inject NODE kernel-line mlx5_1 cmd-timeout; nicd-sim inject NODE kernel-line bnxt_re0 fw-stall"
"$sim" inject "$root" kernel-line mlx5_1 cmd-timeout
"$sim" inject "$root" kernel-line bnxt_re0 fw-stall
wait_cycles 2
grep -E '^nicd_(kernel_errors_total|device_health)\{device="(mlx5_1|bnxt_re0)"' "$textfile" || true
grep -E '^nicd_condition_active\{device="(mlx5_1|bnxt_re0)",port="0"' "$textfile" || true
grep -E '^nicd_node_health ' "$textfile" || true
echo
echo "roles (compute NICs sit beside a GPU; the node is fatal only when one of them is):"
sed -nE 's/^nicd_device_info\{device="([^"]+)".*,role="([a-z]+)".*/  \1 \2/p' "$textfile"
echo
echo "$ nicctl status   (exit code 2: fatal)"
nicctl status || true
echo
echo "$ nicctl events"
nicctl events | tail -8
echo
echo "$ busctl tree io.nicd.Nicd1   (the first lines)"
busctl --address="$bus" tree --list io.nicd.Nicd1 | head -8

bold "8. One more cycle, as an operator would run it: nicd --once (state carries over; its exit status is the verdict)"
job_stop "$nicd_pid"
rc=0
"$nicd" --root "$root" --config "$work/nicd.conf" --plugin-directory "$build/plugins" --no-dbus --once --log-level error || rc=$?
echo "exit status $rc (0 healthy, 1 degraded, 2 fatal, 3 could not judge)"

bold "8b. Firmware baseline: the fleet runs ConnectX-7 firmware 28.40.1000 or later, and this node missed the rollout"
echo "$ nicd-sim inject NODE fw-old mlx5_0   (every card of its board: none differs from its peers, so no firmware_drift)"
"$sim" inject "$root" fw-old mlx5_0
{ "$nicd" --root "$root" --config "$work/nicd.conf" --plugin-directory "$build/plugins" --no-dbus --once --log-level error || true; } |
    grep -E 'firmware_(below_baseline|drift)' || true
"$sim" inject "$root" fw-old-clear mlx5_0

bold "9. nicd's log"
cat "$work/nicd.log"

bold "10. Inventory across boots: an HGX H100 node (8 GPUs, a compute NIC beside each) and a NIC that does not come back after a reboot"
hgx=$work/hgx
"$sim" create "$hgx" --profile hgx-h100 >/dev/null
printf '[provision]\nMode=off\n[signals]\nEnable=no\n' >"$work/hgx.conf"
hgx_once() {
    { "$nicd" --root "$hgx" --config "$work/hgx.conf" --plugin-directory "$build/plugins" --no-dbus --once --log-level error || true; } |
        grep -E '^(inventory:|node health:|fatal|degraded) ' || true
}
hgx_once
echo
echo "$ nicd-sim inject HGX remove mlx5_5; nicd-sim reboot HGX   (its firmware did not come up)"
"$sim" inject "$hgx" remove mlx5_5
"$sim" reboot "$hgx"
hgx_once
echo
echo "demo done: nicd provisioned RoCE QoS (trust, PFC, ECN, ToS) and repaired drift on mlx5_1; it"
echo "saw mlx5_2's FEC margin run out while its link was up (degraded, replace_cable_or_transceiver)"
echo "and then the link go down (fatal), mlx5_3's link drop that never trained again (link_drop,"
echo "fatal, check_cable), the Broadcom bnxt_re0's congestion carried by PFC alone"
echo "(pfc_only, check_congestion_config), mlx5_0's symbol errors climb past the IBTA BER (degraded),"
echo "mlx5_1's firmware command timeout and bnxt_re0's firmware stall in the kernel log (fatal, each"
echo "recognised by its own vendor's plugin), the ConnectX cards below the fleet's firmware baseline"
echo "(firmware_below_baseline, update_firmware); the never-cabled bnxt_re1, a storage"
echo "NIC (no GPU on its socket), is reported, fatal only while all peers of its role are up. Every"
echo "condition says what to do for a machine (ACTION, action=): check_cable,"
echo "replace_cable_or_transceiver, reset_nic, ... (docs/conditions.md). On an HGX H100 node a NIC"
echo "gone across a reboot is device_missing with its PCI address (reseat_nic), and the node is short"
echo "of the compute ports its GPUs expect (inventory_short.compute, fatal)."
