#!/usr/bin/env bash
# The verbs probe (ibv_open_device + ibv_query_port under the driver deadline) on a device that
# rdma-core lists but whose driver fails or does not answer. There is no RDMA hardware here, so in
# a private mount namespace libibverbs (rdma-core) is shown a fake uverbs device: a sysfs tree
# given by SYSFS_PATH ("rxe_fake0", claimed by the rxe provider by its name) and a private /dev
# (an overlay: the host's /dev is not touched) where /dev/infiniband/uverbs0 is what the case needs:
#   - a regular file: the open fails                       -> unresponsive, naming the call and error
#   - uverbs' char major with no driver bound (ENXIO)      -> the same
#   - a regular file under a read lease: the open blocks in the kernel (a driver that does not
#     answer) -> caught at the deadline without holding the caller, not probed again while out,
#     probed again once it returns
#   - a node nicd may not open (EACCES, EPERM: a container without the device) -> not probed;
#   - a device rdma-core does not list is not probed;
# and nicd itself on the real root (the simulated node mounted on /sys) raises driver_unresponsive
# for the device whose open fails.
# Needs root, unshare and overlayfs. Skipped (77) where ib_core is loaded: libibverbs then asks
# the kernel over netlink and ignores SYSFS_PATH (VerbsProbe.EveryListedDevice… probes the real
# devices there).
set -euo pipefail
build=${NICD_BUILD_DIR:?}
check="$build/tests/tools/verbs_check"
[ -x "$check" ] || { echo "FAIL: $check is not built"; exit 1; }
[ "$(id -u)" = 0 ] || { echo "FAIL: needs root (mount namespace)"; exit 1; }
command -v unshare >/dev/null || { echo "FAIL: unshare is not installed"; exit 1; }
if [ -e /sys/module/ib_core ]; then
    echo "SKIP: ib_core is loaded; libibverbs lists the kernel's devices, not a fake one"
    exit 77
fi

dir=$(mktemp -d /tmp/nicd-verbs.XXXXXX)
trap 'rm -rf "$dir"' EXIT
fail=0

# in_namespace MODE OUT CMD...: CMD in a private mount namespace where rdma-core lists one fake
# device, $IBDEV (default rxe_fake0; an mlx5_* name is claimed by the mlx5 provider through a
# ConnectX-5 PCI modalias, which every rdma-core's mlx5 provider knows), and, with $SIM_SYS, that simulated sysfs tree is mounted on /sys.
in_namespace() {
    local mode=$1 out=$2
    shift 2
    mkdir -p "$dir/$mode"
    IBDEV=${IBDEV:-rxe_fake0} SIM_SYS=${SIM_SYS:-} \
        unshare --mount --propagation private bash -s "$mode" "$dir/$mode" "$@" \
        >"$out" 2>"$out.err" <<'INNER'
set -euo pipefail
mode=$1 w=$2
shift 2
mount -t tmpfs tmpfs "$w"
s=$w/sys v=$w/sys/class/infiniband_verbs
mkdir -p "$v/uverbs0" "$s/class/infiniband/$IBDEV/device"
echo 6 >"$v/abi_version"        # the uverbs ABI (3..6); without it nothing is listed
echo "$IBDEV" >"$v/uverbs0/ibdev" # rxe claims rxe* by name; mlx5 by the PCI id below
echo 1 >"$v/uverbs0/abi_version" # the provider's ABI (rxe 1..2, mlx5 1)
echo 0:0 >"$v/uverbs0/dev"      # no device number to match: the open fails at once
echo 1 >"$s/class/infiniband/$IBDEV/node_type"
echo pci:v000015B3d00001017sv000015B3sd00000007bc02sc00i00 >"$s/class/infiniband/$IBDEV/device/modalias"
if [ -n "$SIM_SYS" ]; then mount --bind "$SIM_SYS" /sys; fi
mkdir "$w/up" "$w/work" "$w/dev"
mount -t overlay overlay -o "lowerdir=/dev,upperdir=$w/up,workdir=$w/work" "$w/dev"
for m in pts shm mqueue hugepages; do
    if mountpoint -q "/dev/$m"; then mount --rbind "/dev/$m" "$w/dev/$m"; fi
done
mount --move "$w/dev" /dev
mkdir -p /dev/infiniband
mount -t tmpfs tmpfs /dev/infiniband
case $mode in
file | lease) : >/dev/infiniband/uverbs0 ;;
refused) install -m 000 /dev/null /dev/infiniband/uverbs0 ;;
nodriver) mknod /dev/infiniband/uverbs0 c 231 192 ;;
esac
SYSFS_PATH=$s "$@"
INNER
}

# run_case MODE OUT VERBS_CHECK_ARGS...: a namespace that cannot be set up fails the test, saying
# why.
run_case() {
    local mode=$1 out=$2
    shift 2
    if ! in_namespace "$mode" "$out" "$check" "$@"; then
        echo "FAIL: verbs_check $* in a private mount namespace ($mode) did not run:"
        cat "$out" "$out.err"
        fail=1
    fi
}

expect_line() { # FILE ROUND REGEX WHAT
    local got
    got=$(awk -v r="$2" '$1 == "round" && $2 == r' "$1")
    if ! grep -Eq "$3" <<<"$got"; then
        echo "FAIL: $4: round $2 said '$got'"
        cat "$1" "$1.err"
        fail=1
    fi
}

# 1. The device node is not a device: the open fails at once.
run_case file "$dir/file.out" rxe_fake0 500 2 50
# (libibverbs' errno after a failed open is not always the first failure's: the call is named and
# an error given, whatever its text.)
expect_line "$dir/file.out" 1 "^round 1 [0-9]+ ibv_open_device\(rxe_fake0\) failed(: [A-Z].+)?$" \
    "an open that fails is the probe's error"
expect_line "$dir/file.out" 2 "^round 2 [0-9]+ ibv_open_device\(rxe_fake0\) failed(: [A-Z].+)?$" \
    "and again on the next probe"

# 2. uverbs' major with no driver behind it.
run_case nodriver "$dir/nodriver.out" rxe_fake0 500 1 0
expect_line "$dir/nodriver.out" 1 "^round 1 [0-9]+ ibv_open_device\(rxe_fake0\) failed(: [A-Z].+)?$" \
    "a node with no driver"

# 3. A device rdma-core does not list (no provider, no uverbs) is not probed.
run_case file "$dir/unlisted.out" mlx5_7 500 1 0
expect_line "$dir/unlisted.out" 1 "^round 1 [0-9]+ ok$" "a device rdma-core does not list"

# 3b. The open is refused (EACCES: root without CAP_DAC_OVERRIDE opening a mode-000 node; in a
#     container, the device cgroup's EPERM): nicd may not probe the device, which is no fault.
in_namespace refused "$dir/refused.out" setpriv --inh-caps=-dac_override,-dac_read_search \
    --bounding-set=-dac_override,-dac_read_search "$check" rxe_fake0 500 1 0 ||
    { echo "FAIL: verbs_check without CAP_DAC_OVERRIDE did not run:"; cat "$dir/refused.out"*; fail=1; }
expect_line "$dir/refused.out" 1 "^round 1 [0-9]+ ok$" "an open refused by permissions is not a fault"

# 4. The open blocks (read lease on the node) for 1.2 s; deadline 300 ms, a probe every 200 ms.
run_case lease "$dir/lease.out" rxe_fake0 300 9 200 /dev/infiniband/uverbs0 1200
expect_line "$dir/lease.out" 1 "^round 1 (3[0-9][0-9]|[4-8][0-9][0-9]) the verbs probe of rxe_fake0 \(ibv_open_device, ibv_query_port\) did not return within 300 ms$" \
    "a probe that blocks is caught at the deadline"
expect_line "$dir/lease.out" 2 "^round 2 [0-9]{1,2} a verbs probe of rxe_fake0 \(ibv_open_device\) has not returned yet$" \
    "while it is out the device is not probed again (and the caller is not held)"
expect_line "$dir/lease.out" 9 "^round 9 [0-9]+ ibv_open_device\(rxe_fake0\) failed(: [A-Z].+)?$" \
    "once the blocked open returned, the device is probed again"
if awk '$1 == "round" && $3 > 900 { bad = 1 } END { exit !bad }' "$dir/lease.out"; then
    echo "FAIL: a round held the caller past the deadline"
    cat "$dir/lease.out"
    fail=1
fi

# 5. The daemon on the real root: the simulated node mounted on /sys, rdma-core listing mlx5_0,
#    whose open fails. One cycle (--once) raises driver_unresponsive on mlx5_0, and only there.
nicd_bin="$build/daemon/nicd"
"$build/tools/nicd-sim/nicd-sim" create "$dir/node" >/dev/null
cat >"$dir/nicd.conf" <<CONF
[daemon]
PluginDirectory=$build/plugins
StateDirectory=$dir/state
[textfile]
Path=$dir/nicd.prom
[provision]
Mode=off
[journal]
Enable=no
CONF
mkdir -p "$dir/state"
# Its exit status is the node's verdict: fatal (2), as mlx5_0 does not answer.
rc=0
IBDEV=mlx5_0 SIM_SYS="$dir/node/sys" in_namespace file "$dir/daemon.out" \
    "$nicd_bin" --root / --config "$dir/nicd.conf" --once --no-dbus || rc=$?
if [ "$rc" != 2 ]; then
    echo "FAIL: nicd --once on the real root in a private mount namespace exited $rc, not 2 (fatal)"
    cat "$dir/daemon.out" "$dir/daemon.out.err"
    fail=1
fi
prom=$(cat "$dir/nicd.prom" 2>/dev/null || true)
if ! grep -Eq '^nicd_condition_active\{device="mlx5_0",port="0",code="driver_unresponsive",severity="fatal",action="reset_nic"\} 1$' <<<"$prom"; then
    echo "FAIL: nicd on the real root did not raise driver_unresponsive for mlx5_0"
    grep -E "nicd_condition_active|nicd_device_health" <<<"$prom" || true
    cat "$dir/daemon.out" "$dir/daemon.out.err"
    fail=1
fi
if grep -q 'code="driver_unresponsive"' <<<"$(grep -v 'device="mlx5_0"' <<<"$prom")"; then
    echo "FAIL: a device rdma-core does not list was reported unresponsive"
    grep driver_unresponsive <<<"$prom"
    fail=1
fi
if ! grep -q "ibv_open_device(mlx5_0) failed" "$dir/daemon.out" "$dir/daemon.out.err"; then
    echo "FAIL: nicd did not say which call failed on mlx5_0"
    cat "$dir/daemon.out" "$dir/daemon.out.err"
    fail=1
fi

[ "$fail" = 0 ] && echo "PASS: verbs probe on a fake rdma-core device (open fails, no driver, not listed, blocks)"
exit "$fail"
