#!/usr/bin/env bash
# The nicd .deb's maintainer scripts through a package's life, run by the real dpkg into a root
# of this test's own (dpkg --root with DPKG_ROOT, as the scripts and deb-systemd-helper honour
# it; the host is not touched): install enables the unit; an upgrade keeps the admin's
# nicd.conf (a conffile: the new one goes beside it as .dpkg-dist) and the admin's "disable";
# remove masks the unit and keeps nicd's state and config; purge takes both away. (Starting,
# restarting and stopping go through deb-systemd-invoke, which does nothing without a running
# systemd: not observable here.)
set -euo pipefail
build=${NICD_BUILD_DIR:?}
command -v deb-systemd-helper >/dev/null || { echo "SKIP: init-system-helpers is not installed"; exit 77; }
out=$(mktemp -d /tmp/nicd-lifecycle.XXXXXX)
trap 'rm -rf "$out"' EXIT
source "$(dirname "$0")/support/packages.sh"
pkgs=$(packages_dir "$build" "$out")
deb=$(ls "$pkgs"/nicd_*.deb)
version=$(dpkg-deb -f "$deb" Version)

# The next version: the same package with a changed default nicd.conf.
dpkg-deb -R "$deb" "$out/next"
sed -i "s/^Version: .*/Version: $version+next1/" "$out/next/DEBIAN/control"
echo "# changed in the next version" >>"$out/next/etc/nicd/nicd.conf"
dpkg-deb --root-owner-group -b "$out/next" "$out/nicd_next.deb" >/dev/null

root=$out/root
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates" "$root/var/lib/dpkg/triggers"
touch "$root/var/lib/dpkg/status" "$root/var/lib/dpkg/available"
dpkg_() { dpkg --root="$root" --force-script-chrootless --force-depends "$@" >>"$out/dpkg.log" 2>&1; }
fail=0
wants=$root/etc/systemd/system/multi-user.target.wants/nicd.service
mask=$root/etc/systemd/system/nicd.service

dpkg_ -i "$deb" || { cat "$out/dpkg.log"; exit 1; }
[ -L "$wants" ] || { echo "FAIL: install did not enable nicd.service"; fail=1; }
[ -d "$root/var/lib/prometheus/node-exporter" ] || { echo "FAIL: no textfile directory after install"; fail=1; }
grep -qx /etc/nicd/nicd.conf "$root/var/lib/dpkg/info/nicd.conffiles" || { echo "FAIL: nicd.conf is not a conffile"; fail=1; }

# The admin edits nicd.conf, nicd keeps state; the upgrade keeps both (--force-confold: what
# unattended upgrades answer).
echo "# the admin's line" >>"$root/etc/nicd/nicd.conf"
mkdir -p "$root/var/lib/nicd" && echo '{}' >"$root/var/lib/nicd/state.json"
dpkg_ --force-confold -i "$out/nicd_next.deb" || { cat "$out/dpkg.log"; exit 1; }
grep -q "the admin's line" "$root/etc/nicd/nicd.conf" || { echo "FAIL: the upgrade overwrote the admin's nicd.conf"; fail=1; }
grep -q "changed in the next version" "$root/etc/nicd/nicd.conf.dpkg-dist" 2>/dev/null ||
    { echo "FAIL: the new nicd.conf was not put beside it as nicd.conf.dpkg-dist"; fail=1; }
[ -L "$wants" ] || { echo "FAIL: the upgrade lost the enablement"; fail=1; }

# An admin's "disable" survives the next upgrade.
systemctl --root="$root" disable nicd.service >/dev/null 2>&1
dpkg_ --force-confold -i "$out/nicd_next.deb" || { cat "$out/dpkg.log"; exit 1; }
[ ! -e "$wants" ] || { echo "FAIL: an upgrade re-enabled a unit the admin disabled"; fail=1; }
systemctl --root="$root" enable nicd.service >/dev/null 2>&1

# Remove: the unit is masked, state and config stay.
dpkg_ -r nicd || { cat "$out/dpkg.log"; exit 1; }
[ "$(readlink "$mask" 2>/dev/null)" = /dev/null ] || { echo "FAIL: remove did not mask nicd.service"; fail=1; }
[ ! -e "$root/usr/sbin/nicd" ] || { echo "FAIL: remove left /usr/sbin/nicd"; fail=1; }
[ -f "$root/var/lib/nicd/state.json" ] || { echo "FAIL: remove deleted nicd's state"; fail=1; }
[ -f "$root/etc/nicd/nicd.conf" ] || { echo "FAIL: remove deleted the conffile"; fail=1; }

# Purge: state, config, mask and enablement records are gone.
dpkg_ -P nicd || { cat "$out/dpkg.log"; exit 1; }
[ ! -e "$root/var/lib/nicd" ] || { echo "FAIL: purge left /var/lib/nicd"; fail=1; }
[ ! -e "$root/etc/nicd/nicd.conf" ] || { echo "FAIL: purge left /etc/nicd/nicd.conf"; fail=1; }
[ ! -L "$mask" ] || { echo "FAIL: purge left the unit masked"; fail=1; }
[ ! -L "$wants" ] || { echo "FAIL: purge left the unit enabled"; fail=1; }
if find "$root/var/lib/systemd/deb-systemd-helper-enabled" -name 'nicd*' 2>/dev/null | grep -q .; then
    echo "FAIL: purge left deb-systemd-helper's records of nicd"
    fail=1
fi

[ "$fail" = 0 ] || cat "$out/dpkg.log"
[ "$fail" = 0 ] && echo "lifecycle OK: install enables, upgrade keeps conffile and disable, remove masks, purge cleans"
exit "$fail"
