#!/usr/bin/env bash
# The DEB and RPM built from this tree install what an operator expects, where the FHS says.
set -euo pipefail
build=${NICD_BUILD_DIR:?}
out=$(mktemp -d /tmp/nicd-pkg.XXXXXX)
trap 'rm -rf "$out"' EXIT

(cd "$build" && cpack -G "DEB;RPM" -B "$out" >"$out/cpack.log" 2>&1) || { cat "$out/cpack.log"; exit 1; }
deb=$(ls "$out"/*.deb)
rpm=$(ls "$out"/*.rpm)
dpkg-deb -c "$deb" | awk '{print $NF}' | sed 's|^\./|/|' >"$out/deb.list"
rpm -qlp "$rpm" 2>/dev/null >"$out/rpm.list"

libdir=$(grep '^CMAKE_INSTALL_LIBDIR:' "$build/CMakeCache.txt" | cut -d= -f2)
expected=(
    /usr/sbin/nicd
    /usr/bin/nicd-sim
    "/usr/$libdir/nicd/plugins/nicd-plugin-mlx5.so"
    /lib/systemd/system/nicd.service
    /etc/nicd/nicd.conf
    /usr/share/doc/nicd/README.md
    /usr/share/doc/nicd/metrics.md
)
[ -e "$build/tools/nicctl/nicctl" ] && expected+=(/usr/bin/nicctl)
[ -e "$(dirname "$0")/../../dbus/io.nicd.Nicd1.conf" ] && expected+=(/usr/share/dbus-1/system.d/io.nicd.Nicd1.conf)
fail=0
for f in "${expected[@]}"; do
    for kind in deb rpm; do
        if ! grep -qx "$f" "$out/$kind.list"; then
            echo "FAIL: $kind package lacks $f"
            fail=1
        fi
    done
done
for kind in deb rpm; do
    if grep -Eq 'tests/|nicd-plugin-(good|major|minor|throwy)' "$out/$kind.list"; then
        echo "FAIL: $kind package ships test files"
        fail=1
    fi
done
dpkg-deb -I "$deb" | grep -q 'Depends:.*libsystemd0' || { echo "FAIL: deb has no shared-library dependencies"; fail=1; }
dpkg-deb -e "$deb" "$out/control"
grep -qx /etc/nicd/nicd.conf "$out/control/conffiles" || { echo "FAIL: nicd.conf is not a conffile"; fail=1; }
rpm -qp --configfiles "$rpm" 2>/dev/null | grep -qx /etc/nicd/nicd.conf || { echo "FAIL: nicd.conf is not %config"; fail=1; }
[ "$fail" = 0 ] && echo "packages OK: $(basename "$deb"), $(basename "$rpm")"
exit "$fail"
