#!/usr/bin/env bash
# The systemd unit as built: systemd-analyze verify accepts it (ExecStart pointed at the built
# nicd), and it says what DESIGN.md promises (Type=notify, SIGHUP reload, watchdog, the
# directories, the sandbox's writable places) without a directive that would break nicd (all of
# /sys read-only, a bus-name readiness, Internet-only address families).
set -euo pipefail
build=${NICD_BUILD_DIR:?}
unit="$build/units/nicd.service"
dir=$(mktemp -d /tmp/nicd-unit.XXXXXX)
trap 'rm -rf "$dir"' EXIT
fail=0
expect() { grep -qx -- "$1" "$unit" || { echo "FAIL: nicd.service lacks '$1'"; fail=1; }; }
refuse() { ! grep -q -- "^$1" "$unit" || { echo "FAIL: nicd.service must not set $1"; fail=1; }; }

sbindir=$(sed -n 's|^ExecStart=\(.*\)/nicd$|\1|p' "$unit")
[ "$sbindir" = /usr/sbin ] || { echo "FAIL: ExecStart is not /usr/sbin/nicd but '$sbindir/nicd'"; fail=1; }
expect 'Type=notify'
# shellcheck disable=SC2016 # a literal $MAINPID
expect 'ExecReload=/bin/kill -HUP $MAINPID'
expect 'Restart=on-failure'
expect 'WatchdogSec=30s'
expect 'StateDirectory=nicd'
expect 'RuntimeDirectory=nicd'
expect 'ConfigurationDirectory=nicd'
expect 'WantedBy=multi-user.target'
refuse 'BusName='
# ProtectKernelTunables= makes /sys read-only: the NICs' knobs and configfs must be let back in.
expect 'ProtectSystem=strict'
expect 'ProtectKernelTunables=yes'
expect 'ReadWritePaths=/sys/devices -/sys/kernel/config'
expect 'ReadWritePaths=-/var/lib/prometheus/node-exporter'
expect 'CapabilityBoundingSet=CAP_NET_ADMIN'
expect 'RestrictAddressFamilies=AF_UNIX AF_NETLINK'
expect 'BindPaths=-/dev/infiniband'
expect 'DeviceAllow=char-infiniband_verbs rw'

[ -x "$build/daemon/nicd" ] || { echo "FAIL: $build/daemon/nicd is not built"; exit 1; }
sed "s|^ExecStart=.*|ExecStart=$build/daemon/nicd|" "$unit" >"$dir/nicd.service"
out=$(systemd-analyze verify --man=no "$dir/nicd.service" 2>&1) || true
if [ -n "$out" ]; then
    echo "FAIL: systemd-analyze verify:"
    echo "$out"
    fail=1
fi
[ "$fail" = 0 ] && echo "unit OK"
exit "$fail"
