#!/usr/bin/env bash
# nicd under the shipped unit's sandbox. A private systemd manager (a user instance run by root,
# in a mount namespace of this test's own, so it may apply every sandboxing directive) starts
# the unit exactly as built, with a drop-in that changes only what a simulated node needs:
# ExecStart= (the built nicd on a simulated root), ReadWritePaths= that root (on a real node
# the same writes go to /sys/devices, configfs and the textfile directory, which the unit
# allows), and where its output goes. Then:
#  - nicd starts (READY=1 after its first full cycle) and every kind of write it makes lands:
#    DCB (PFC), configfs RoCE ToS, the ecn/ tree, the textfile, its state; it runs with only
#    CAP_NET_ADMIN, a seccomp filter and a read-only /usr and /etc;
#  - nicd forked its knob writer and limited its own writes with Landlock (where the kernel has
#    it); with Landlock's system calls filtered out it says so once and still provisions;
#  - the same sandbox around a probe: what nicd needs on a real kernel works (a sysfs knob under
#    /sys/devices, rtnetlink as CAP_NET_ADMIN), what it must not do fails (writing /etc, /usr,
#    /proc/sys, a sysfs file outside /sys/devices, an Internet socket, mknod, mount);
#  - the same sandbox around sandbox_probe, which limits itself as nicd does: from nicd's process
#    writes to a PCI function's remove/reset/config, a CPU's online, configfs outside rdma_cm,
#    another /sys/devices file (stand-ins in the simulated tree; on the real kernel only
#    /sys/devices/virtual/net/lo/tx_queue_len, opened and never written) and the knobs
#    themselves fail, while its state and textfile directories take files; the knob writer
#    writes the knobs and refuses every other path.
set -euo pipefail
build=${NICD_BUILD_DIR:?}
skip() { echo "SKIP: $*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "needs root (a private systemd manager applies the sandbox)"
systemd=/lib/systemd/systemd
[ -x "$systemd" ] || systemd=/usr/lib/systemd/systemd
for tool in unshare systemctl python3 ip; do
    command -v "$tool" >/dev/null || skip "$tool is not installed"
done
[ -x "$systemd" ] || skip "systemd is not installed"

# Everything below runs in a mount namespace of its own: the tmpfs on /run/systemd and the
# manager's mounts do not reach the host.
if [ -z "${NICD_SANDBOX_INNER:-}" ]; then
    exec env NICD_SANDBOX_INNER=1 unshare --mount --propagation private bash "$0" "$@"
fi

# Not under /tmp (the unit has PrivateTmp=) nor /root or /home (ProtectHome=).
top=$(mktemp -d /var/lib/nicd-sandbox-test.XXXXXX)
chmod 755 "$top"
manager=
cleanup() {
    [ -n "$manager" ] && kill "$manager" 2>/dev/null && wait "$manager" 2>/dev/null || true
    [ -n "${NICD_SANDBOX_KEEP:-}" ] || rm -rf "$top"
}
trap cleanup EXIT
fail=0

# A user manager refuses to start unless the system "was booted with systemd".
mkdir -p /run/systemd
mount -t tmpfs tmpfs /run/systemd
mkdir /run/systemd/system
export HOME=$top/home XDG_RUNTIME_DIR=$top/xdg
mkdir -p "$HOME/.config/systemd/user" && mkdir -m 700 "$XDG_RUNTIME_DIR"
"$systemd" --user --log-target=console --log-level="${NICD_SANDBOX_LOG_LEVEL:-info}" >"$top/manager.log" 2>&1 &
manager=$!
for _ in $(seq 100); do
    state=$(systemctl --user is-system-running 2>/dev/null || true)
    [ "$state" = running ] || [ "$state" = degraded ] && break
    sleep 0.1
done
[ "$state" = running ] || [ "$state" = degraded ] || {
    cat "$top/manager.log"
    skip "a private systemd manager does not start here ($state)"
}
# A manager run by root masks paths (ProtectHome=, ProtectKernelTunables=, ...) with the
# inaccessible nodes of /run/systemd/inaccessible, which PID 1 makes; this one made its own.
cp -a "$XDG_RUNTIME_DIR/systemd/inaccessible" /run/systemd/

# The programs where the sandbox lets them run, a simulated node whose QoS has drifted.
mkdir -p "$top/bin" "$top/plugins"
cp "$build/daemon/nicd" "$build/tests/tools/sandbox_probe" "$top/bin/"
cp "$build/plugins/nicd-plugin-mlx5.so" "$build/plugins/nicd-plugin-bnxt.so" "$top/plugins/"
sim=$top/node
"$build/tools/nicd-sim/nicd-sim" create "$sim" >/dev/null
"$build/tools/nicd-sim/nicd-sim" inject "$sim" ecn-drift mlx5_0 >/dev/null
cat >"$sim/etc/nicd/nicd.conf" <<CONF
[provision]
Mode=enforce
CONF

cp "$build/units/nicd.service" "$HOME/.config/systemd/user/nicd.service"
mkdir -p "$HOME/.config/systemd/user/nicd.service.d"
cat >"$HOME/.config/systemd/user/nicd.service.d/simulated-root.conf" <<UNIT
[Service]
ExecStart=
ExecStart=$top/bin/nicd --root $sim --plugin-directory $top/plugins --no-dbus
ReadWritePaths=$sim
StandardOutput=append:$top/nicd.log
StandardError=append:$top/nicd.log
UNIT
systemctl --user daemon-reload
if ! timeout 120 systemctl --user start nicd.service; then
    echo "FAIL: nicd did not start under the unit's sandbox"
    systemctl --user status nicd.service --no-pager || true
    cat "$top/nicd.log" || true
    grep -i 'nicd.service' "$top/manager.log" | tail -20
    exit 1
fi
pid=$(systemctl --user show -p MainPID --value nicd.service)
# Whether this kernel has Landlock (landlock_create_ruleset, 444 on every architecture, asked
# for its ABI version).
landlock=$(python3 -c 'import ctypes; print("yes" if ctypes.CDLL(None, use_errno=True).syscall(444, None, 0, 1) > 0 else "no")')

# The sandbox is in force around nicd.
status=/proc/$pid/status
grep -q '^CapEff:[[:space:]]*0*1000$' "$status" || { echo "FAIL: nicd's capabilities are not CAP_NET_ADMIN alone: $(grep CapEff "$status")"; fail=1; }
grep -q '^Seccomp:[[:space:]]*2$' "$status" || { echo "FAIL: nicd runs without a seccomp filter"; fail=1; }
grep -q '^NoNewPrivs:[[:space:]]*1$' "$status" || { echo "FAIL: nicd runs without NoNewPrivileges"; fail=1; }
awk '$5 == "/" {print $6}' "/proc/$pid/mountinfo" | grep -q '^ro' ||
    { echo "FAIL: the root file system is not read-only for nicd"; fail=1; }
# Its knob writer is its child, and (where the kernel has Landlock) its own writes are limited.
writer=$(tr -d ' ' <"/proc/$pid/task/$pid/children" 2>/dev/null || true)
[ -n "$writer" ] && [ "$(cat "/proc/$writer/comm" 2>/dev/null)" = nicd-knobs ] ||
    { echo "FAIL: nicd has no knob writer (children: '$writer')"; fail=1; }
if [ "$landlock" = yes ]; then
    grep -q "writes limited by Landlock (ABI [0-9]*) to $sim/var/lib/nicd, $sim/var/lib/prometheus/node-exporter, $sim/run/nicd-sim/dcb; QoS knobs change through the knob writer (pid $writer)" "$top/nicd.log" ||
        { echo "FAIL: nicd did not limit its writes with Landlock"; fail=1; }
fi

# Every kind of write landed on the simulated node.
check() { [ "$(cat "$sim/$1" 2>/dev/null)" = "$2" ] || { echo "FAIL: $3 ($1: '$(cat "$sim/$1" 2>/dev/null)', want '$2')"; fail=1; }; }
grep -qx 'pfc_en=8' "$sim/run/nicd-sim/dcb/ens1f0np0" || { echo "FAIL: PFC (DCB) was not provisioned"; fail=1; }
check sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos 106 "RoCE ToS (configfs) was not provisioned"
check sys/class/net/ens1f0np0/ecn/roce_np/enable/3 1 "ECN (the ecn/ tree) was not provisioned"
grep -q '^nicd_qos_compliant{device="mlx5_0",port="1",setting="pfc"} 1$' "$sim/var/lib/prometheus/node-exporter/nicd.prom" 2>/dev/null ||
    { echo "FAIL: no textfile, or it does not show compliant QoS"; fail=1; }
systemctl --user stop nicd.service
[ -s "$sim/var/lib/nicd/state.json" ] || { echo "FAIL: nicd saved no state"; fail=1; }
if grep -Eiq 'operation not permitted|permission denied|read-only file system' "$top/nicd.log"; then
    echo "FAIL: nicd met the sandbox:"
    grep -Ei 'operation not permitted|permission denied|read-only file system' "$top/nicd.log"
    fail=1
fi

# Without Landlock (its system calls filtered out, as on a kernel without it): said once, and
# the knobs are still provisioned, through the writer.
"$build/tools/nicd-sim/nicd-sim" inject "$sim" ecn-drift mlx5_0 >/dev/null
echo 0 >"$sim/sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos"
cat >"$HOME/.config/systemd/user/nicd.service.d/zz-no-landlock.conf" <<UNIT
[Service]
SystemCallFilter=~landlock_create_ruleset
StandardOutput=truncate:$top/nicd-nolandlock.log
StandardError=inherit
UNIT
systemctl --user daemon-reload
if timeout 120 systemctl --user start nicd.service; then
    check sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos 106 "without Landlock, RoCE ToS was not provisioned"
    check sys/class/net/ens1f0np0/ecn/roce_np/enable/3 1 "without Landlock, ECN was not provisioned"
    said=$(grep -c 'Landlock is not in force (landlock_create_ruleset is not permitted' "$top/nicd-nolandlock.log" || true)
    [ "$said" = 1 ] || { echo "FAIL: without Landlock nicd said so $said times, not once"; cat "$top/nicd-nolandlock.log"; fail=1; }
    systemctl --user stop nicd.service
else
    echo "FAIL: nicd did not start without Landlock"
    cat "$top/nicd-nolandlock.log" || true
    fail=1
fi
rm "$HOME/.config/systemd/user/nicd.service.d/zz-no-landlock.conf"

# The same sandbox around a probe on the real kernel.
cat >"$top/probe.sh" <<'PROBE'
ok() {
    what=$1
    shift
    if "$@" 2>/dev/null; then echo "allowed: $what"; else echo "denied: $what"; fi
}
lo_txq=$(cat /sys/class/net/lo/tx_queue_len)
lo_mtu=$(cat /sys/class/net/lo/mtu)
ok sysfs-devices sh -c "echo $lo_txq > /sys/devices/virtual/net/lo/tx_queue_len"
ok rtnetlink ip link set dev lo mtu "$lo_mtu"
ok runtime-dir touch "$RUNTIME_DIRECTORY/probe"
ok state-dir touch "$STATE_DIRECTORY/probe"
ok etc touch /etc/nicd-forbidden
ok usr touch /usr/lib/nicd-forbidden
ok proc-sys sh -c 'echo 1 > /proc/sys/net/ipv4/ip_forward'
ok sysfs-kernel sh -c 'cat /sys/kernel/mm/transparent_hugepage/enabled > /sys/kernel/mm/transparent_hugepage/enabled'
ok inet-socket python3 -c 'import socket; socket.socket(socket.AF_INET, socket.SOCK_DGRAM)'
ok mknod mknod "$RUNTIME_DIRECTORY/node" c 1 3
ok mount mount -t tmpfs tmpfs "$RUNTIME_DIRECTORY"
PROBE
cat >"$HOME/.config/systemd/user/nicd.service.d/simulated-root.conf" <<UNIT
[Service]
Type=oneshot
ExecStart=
ExecStart=/bin/sh $top/probe.sh
StandardOutput=append:$top/probe.log
StandardError=append:$top/probe.log
UNIT
systemctl --user daemon-reload
timeout 60 systemctl --user start nicd.service || true
expect_probe() { grep -qx "$1" "$top/probe.log" || { echo "FAIL: expected '$1' under the unit's sandbox"; fail=1; }; }
for what in sysfs-devices rtnetlink runtime-dir state-dir; do
    expect_probe "allowed: $what"
done
for what in etc usr proc-sys inet-socket mknod mount; do
    expect_probe "denied: $what"
done
[ -e /sys/kernel/mm/transparent_hugepage/enabled ] && expect_probe 'denied: sysfs-kernel'
[ "$fail" = 0 ] || cat "$top/probe.log"

# From a process limited as nicd limits itself, under the same unit. Stand-ins of what uid 0
# may write under the unit's ReadWritePaths= and nicd never does, in the simulated tree.
pci=$(cd "$sim/sys/class/net/ens1f0np0/device" && pwd -P)
cpu=$sim/sys/devices/system/cpu/cpu1
nvmet=$sim/sys/kernel/config/nvmet/ports/1
netdir=$(cd "$sim/sys/class/net/ens1f0np0" && pwd -P)
mkdir -p "$cpu" "$nvmet"
ecn=sys/class/net/ens1f0np0/ecn
mkdir -p "$sim/sys/class/infiniband/mlx5_0/tc/1" && echo 0 >"$sim/sys/class/infiniband/mlx5_0/tc/1/traffic_class"
rel() { echo "${1#"$sim"/}"; }
forbidden=("$pci/remove" "$pci/reset" "$pci/config" "$cpu/online" "$nvmet/addr_traddr" "$netdir/mtu")
for f in "${forbidden[@]}"; do echo 1 >"$f"; done
steps=()
for f in "${forbidden[@]}"; do steps+=("open:$f" "knob:$(rel "$f")=0"); done
steps+=("mkdir:$sim/sys/kernel/config/nvmet/ports/2" "group:sys/kernel/config/nvmet/ports/2")
steps+=("open:$sim/$ecn/roce_rp/enable/3" "open:$sim/sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos")
steps+=("open:/sys/devices/virtual/net/lo/tx_queue_len" "knob:sys/devices/virtual/net/lo/tx_queue_len=1000")
steps+=("create:$sim/var/lib/nicd/probe" "create:$sim/var/lib/prometheus/node-exporter/probe")
steps+=("knob:$ecn/roce_rp/enable/4=1" "knob:$ecn/roce_np/cnp_dscp=48"
    "knob:sys/class/infiniband/mlx5_0/tc/1/traffic_class=106" "group:sys/kernel/config/rdma_cm/mlx5_1"
    "knob:sys/kernel/config/rdma_cm/mlx5_1/ports/1/default_roce_tos=104")
cat >"$HOME/.config/systemd/user/nicd.service.d/simulated-root.conf" <<UNIT
[Service]
Type=oneshot
ExecStart=
ExecStart=$top/bin/sandbox_probe $sim $sim/etc/nicd/nicd.conf ${steps[*]}
ReadWritePaths=$sim
StandardOutput=truncate:$top/limits.log
StandardError=append:$top/limits.log
UNIT
systemctl --user daemon-reload
timeout 60 systemctl --user start nicd.service || true
expect_limit() { grep -qxF -- "$1" "$top/limits.log" || { echo "FAIL: expected '$1' from nicd's process"; lfail=1; }; }
expect_refusal() { grep -qF -- "$1: refused (" "$top/limits.log" || { echo "FAIL: the knob writer did not refuse $1"; lfail=1; }; }
lfail=0
if [ "$landlock" = yes ]; then
    grep -qx 'landlock: enforced (ABI [0-9]*)' "$top/limits.log" || { echo "FAIL: the probe is not limited by Landlock"; lfail=1; }
    denied="denied (Permission denied)"
    for f in "${forbidden[@]}"; do expect_limit "open $f: $denied"; done
    expect_limit "mkdir $sim/sys/kernel/config/nvmet/ports/2: $denied"
    expect_limit "open $sim/$ecn/roce_rp/enable/3: $denied"
    expect_limit "open $sim/sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos: $denied"
    expect_limit "open /sys/devices/virtual/net/lo/tx_queue_len: $denied"
else
    echo "NOTE: this kernel has no Landlock: nicd's own process is limited by the unit alone"
fi
for f in "${forbidden[@]}"; do expect_refusal "knob $(rel "$f")"; done
expect_refusal "group sys/kernel/config/nvmet/ports/2"
expect_refusal "knob sys/devices/virtual/net/lo/tx_queue_len"
expect_limit "create $sim/var/lib/nicd/probe: allowed"
expect_limit "create $sim/var/lib/prometheus/node-exporter/probe: allowed"
for k in "$ecn/roce_rp/enable/4" "$ecn/roce_np/cnp_dscp" sys/class/infiniband/mlx5_0/tc/1/traffic_class \
    sys/kernel/config/rdma_cm/mlx5_1/ports/1/default_roce_tos; do
    expect_limit "knob $k: written"
done
expect_limit "group sys/kernel/config/rdma_cm/mlx5_1: written"
check "$ecn/roce_rp/enable/4" 1 "the knob writer did not write ecn/roce_rp/enable/4"
check sys/class/infiniband/mlx5_0/tc/1/traffic_class 106 "the knob writer did not write traffic_class"
check sys/kernel/config/rdma_cm/mlx5_1/ports/1/default_roce_tos 104 "the knob writer did not write a new group's ToS"
for f in "${forbidden[@]}"; do
    [ "$(cat "$f")" = 1 ] || { echo "FAIL: $f was written"; lfail=1; }
done
[ -e "$sim/sys/kernel/config/nvmet/ports/2" ] && { echo "FAIL: a configfs group outside rdma_cm was made"; lfail=1; }
[ "$lfail" = 0 ] || { cat "$top/limits.log"; fail=1; }

[ "$fail" = 0 ] && echo "sandbox OK: nicd provisions and publishes under the unit; forbidden writes fail, from nicd's process (Landlock: $landlock) and through its knob writer"
exit "$fail"
