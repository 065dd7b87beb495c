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
#  - the same sandbox around a probe: what nicd needs on a real kernel works (a sysfs knob under
#    /sys/devices, rtnetlink as CAP_NET_ADMIN), what it must not do fails (writing /etc, /usr,
#    /proc/sys, a sysfs file outside /sys/devices, an Internet socket, mknod, mount).
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
cp "$build/daemon/nicd" "$top/bin/"
cp "$build/plugins/nicd-plugin-mlx5.so" "$top/plugins/"
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

# The sandbox is in force around nicd.
status=/proc/$pid/status
grep -q '^CapEff:[[:space:]]*0*1000$' "$status" || { echo "FAIL: nicd's capabilities are not CAP_NET_ADMIN alone: $(grep CapEff "$status")"; fail=1; }
grep -q '^Seccomp:[[:space:]]*2$' "$status" || { echo "FAIL: nicd runs without a seccomp filter"; fail=1; }
grep -q '^NoNewPrivs:[[:space:]]*1$' "$status" || { echo "FAIL: nicd runs without NoNewPrivileges"; fail=1; }
awk '$5 == "/" {print $6}' "/proc/$pid/mountinfo" | grep -q '^ro' ||
    { echo "FAIL: the root file system is not read-only for nicd"; fail=1; }

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

[ "$fail" = 0 ] && echo "sandbox OK: nicd provisions and publishes under the unit; forbidden writes fail"
exit "$fail"
