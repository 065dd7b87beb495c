#!/usr/bin/env bash
# The nicd DEB and RPM built from this tree (as `make package` builds them) install what an operator
# expects, where the FHS says, with the config file protected and the unit's scripts in place.
set -euo pipefail
build=${NICD_BUILD_DIR:?}
source_dir=${NICD_SOURCE_DIR:?}
out=$(mktemp -d /tmp/nicd-pkg.XXXXXX)
trap 'rm -rf "$out"' EXIT

source "$(dirname "$0")/support/packages.sh"
pkgs=$(packages_dir "$build" "$out")
deb=$(ls "$pkgs"/nicd_*.deb)
rpm=$(ls "$pkgs"/nicd-[0-9]*.rpm)
dpkg-deb -c "$deb" >"$out/deb.contents"
awk '{print $NF}' "$out/deb.contents" | sed 's|^\./|/|; s|\(.\)/$|\1|' >"$out/deb.list"
awk '$1 !~ /^d/ {print $NF}' "$out/deb.contents" | sed 's|^\./|/|' >"$out/deb.files"
rpm -qlp "$rpm" 2>/dev/null >"$out/rpm.list"

libdir=$(sed -n 's/^CMAKE_INSTALL_LIBDIR:[A-Z]*=//p' "$build/CMakeCache.txt")
unitdir=$(pkg-config --variable=systemdsystemunitdir systemd 2>/dev/null || true)
unitdir=${unitdir:-/lib/systemd/system}
plugindir="/usr/$libdir/nicd/plugins"
expected=(
    /usr/sbin/nicd
    "$plugindir/nicd-plugin-mlx5.so"
    "$plugindir/nicd-plugin-bnxt.so"
    "$unitdir/nicd.service"
    /etc/nicd/nicd.conf
    /etc/nicd/nicd.conf.d
    /var/lib/prometheus/node-exporter
    /usr/share/doc/nicd/README.md
    /usr/share/doc/nicd/metrics.md
    /usr/share/doc/nicd/runbook.md
    /usr/share/nicd/prometheus/nicd.rules.yml
    /usr/share/nicd/alertmanager/nicd.yml
    /usr/share/nicd/npd/nicd-monitor.json
    /usr/share/nicd/npd/nicd-npd-check
    /usr/share/nicd/slurm/nicd-slurm-health-check
    /usr/share/nicd/slurm/nicd-slurm-prolog
    /etc/nicd/slurm-check.conf
    /usr/share/nicd/grafana/nicd.json
    /usr/share/man/man8/nicd.8.gz
    /usr/share/man/man5/nicd.conf.5.gz
    /usr/share/man/man8/nicctl.8.gz
    /usr/share/dbus-1/interfaces/io.nicd.Nicd1.Manager.xml
)
# (the simulator is in nicd-sim: package_policy_test.sh)
[ -e "$build/tools/nicctl/nicctl" ] && expected+=(/usr/bin/nicctl)
[ -e "$source_dir/dbus/io.nicd.Nicd1.conf" ] && expected+=(/usr/share/dbus-1/system.d/io.nicd.Nicd1.conf)

fail=0
for f in "${expected[@]}"; do
    for kind in deb rpm; do
        grep -qx "$f" "$out/$kind.list" || { echo "FAIL: $kind package lacks $f"; fail=1; }
    done
done
for kind in deb rpm; do
    # Only the shipped plugins: no test plugins, no tests, no SDK headers.
    others=$(grep "^$plugindir/." "$out/$kind.list" |
        grep -vx -e "$plugindir/nicd-plugin-mlx5.so" -e "$plugindir/nicd-plugin-bnxt.so" || true)
    [ -z "$others" ] || { echo "FAIL: $kind package ships other plugins: $others"; fail=1; }
    if grep -Eq '/tests?/|_test$|/include/' "$out/$kind.list"; then
        echo "FAIL: $kind package ships test files or headers"
        fail=1
    fi
    # Nothing outside the FHS places a package may use (deb: files; rpm: everything it owns).
    list="$out/$kind.list"
    [ "$kind" = deb ] && list="$out/deb.files"
    strays=$(grep -Ev '^(/usr/(s?bin|lib|share)|/lib/systemd|/etc/nicd|/var/lib/prometheus)(/|$)' \
        "$list" || true)
    [ -z "$strays" ] || { echo "FAIL: $kind package installs outside the FHS places: $strays"; fail=1; }
done

# The unit as packaged starts the packaged binary.
dpkg-deb --fsys-tarfile "$deb" | tar -xO ".$unitdir/nicd.service" >"$out/nicd.service"
grep -qx 'ExecStart=/usr/sbin/nicd' "$out/nicd.service" || { echo "FAIL: packaged unit does not run /usr/sbin/nicd"; fail=1; }

# DEB: shared-library dependencies, conffile, maintainer scripts.
info=$(dpkg-deb -I "$deb")
grep -q 'Depends:.*libsystemd0' <<<"$info" || { echo "FAIL: deb has no shared-library dependencies"; fail=1; }
dpkg-deb -e "$deb" "$out/control"
for conf in nicd.conf slurm-check.conf; do
    grep -qx "/etc/nicd/$conf" "$out/control/conffiles" || { echo "FAIL: $conf is not a conffile"; fail=1; }
done
for script in postinst prerm postrm; do
    [ -x "$out/control/$script" ] || { echo "FAIL: deb has no executable $script"; fail=1; }
done
grep -q 'deb-systemd-helper' "$out/control/postinst" || { echo "FAIL: deb postinst does not enable the unit"; fail=1; }

# RPM: %config(noreplace), requirements found, scriptlets.
# %config(noreplace) is flag "n" next to "c"; nothing else is configuration (CPack would mark
# every absolute install path %config).
rpm -qp --qf '[%{FILEFLAGS:fflags} %{FILENAMES}\n]' "$rpm" 2>/dev/null >"$out/rpm.flags"
for conf in nicd.conf slurm-check.conf; do
    grep -qx "cn /etc/nicd/$conf" "$out/rpm.flags" || { echo "FAIL: $conf is not %config(noreplace)"; fail=1; }
done
configs=$(grep '^[a-z]*c[a-z]* ' "$out/rpm.flags" | grep -Ev ' /etc/nicd/(nicd|slurm-check)\.conf$' || true)
[ -z "$configs" ] || { echo "FAIL: rpm marks non-configuration as %config: $configs"; fail=1; }
requires=$(rpm -qp --requires "$rpm" 2>/dev/null)
grep -q '^libsystemd.so.0' <<<"$requires" || { echo "FAIL: rpm has no library requirements"; fail=1; }
scripts=$(rpm -qp --scripts "$rpm" 2>/dev/null)
for s in 'postinstall scriptlet' 'preuninstall scriptlet' 'postuninstall scriptlet'; do
    grep -q "$s" <<<"$scripts" || { echo "FAIL: rpm has no $s"; fail=1; }
done
# The package must not claim directories the system owns.
for dir in /etc /var /var/lib /usr /usr/bin /usr/sbin /usr/lib "/usr/$libdir" /lib "$unitdir" \
    /usr/share/dbus-1 /usr/share/dbus-1/system.d; do
    if grep -qx "$dir" "$out/rpm.list"; then
        echo "FAIL: rpm claims the system directory $dir"
        fail=1
    fi
done

[ "$fail" = 0 ] && echo "packages OK: $(basename "$deb"), $(basename "$rpm")"
exit "$fail"
