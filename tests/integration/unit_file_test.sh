#!/usr/bin/env bash
# systemd-analyze verify accepts the unit as built (with ExecStart pointing at the built nicd).
set -euo pipefail
build=${NICD_BUILD_DIR:?}
dir=$(mktemp -d /tmp/nicd-unit.XXXXXX)
trap 'rm -rf "$dir"' EXIT
sbindir=$(sed -n 's|^ExecStart=\(.*\)/nicd$|\1|p' "$build/units/nicd.service")
sed "s|^ExecStart=.*|ExecStart=$build/daemon/nicd|" "$build/units/nicd.service" >"$dir/nicd.service"
grep -q '^Type=notify$' "$dir/nicd.service"
grep -q '^ExecReload=/bin/kill -HUP \$MAINPID$' "$dir/nicd.service"
grep -q '^WatchdogSec=' "$dir/nicd.service"
[ "$sbindir" = /usr/sbin ] || { echo "ExecStart is not /usr/sbin/nicd but $sbindir/nicd"; exit 1; }
out=$(systemd-analyze verify --man=no "$dir/nicd.service" 2>&1 || true)
if [ -n "$out" ]; then
    echo "$out"
    exit 1
fi
echo "unit OK"
