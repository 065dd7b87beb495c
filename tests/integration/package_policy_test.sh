#!/usr/bin/env bash
# The packages as `make package` builds them are what a distribution reviewer accepts: lintian
# clean (no error, no warning) on both .debs, rpmlint without errors on both .rpms (the filters
# of packaging/rpm/nicd.rpmlintrc, each with its reason), binaries stripped with their symbols in
# the -dbgsym packages, the man pages compressed and free of groff warnings, the completions and
# the D-Bus interface XML in place, and the packaged unit's systemd-analyze exposure at most 2.5.
set -euo pipefail
build=${NICD_BUILD_DIR:?}
source_dir=${NICD_SOURCE_DIR:?}
for tool in lintian rpmlint rpm2cpio cpio file man; do
    command -v "$tool" >/dev/null || { echo "SKIP: $tool is not installed (scripts/install-deps.sh)"; exit 77; }
done
out=$(mktemp -d /tmp/nicd-policy.XXXXXX)
trap 'rm -rf "$out"' EXIT
source "$(dirname "$0")/support/packages.sh"
pkgs=$(packages_dir "$build" "$out")
fail=0
deb=$(ls "$pkgs"/nicd_*.deb)
simdeb=$(ls "$pkgs"/nicd-sim_*.deb)
rpm=$(ls "$pkgs"/nicd-[0-9]*.rpm)
simrpm=$(ls "$pkgs"/nicd-sim-[0-9]*.rpm)

# lintian: nothing at error or warning level.
lintian --fail-on error,warning --no-tag-display-limit "$deb" "$simdeb" >"$out/lintian.log" 2>&1 ||
    { echo "FAIL: lintian:"; grep -E '^[EW]:' "$out/lintian.log" || cat "$out/lintian.log"; fail=1; }
# rpmlint: no error.
rpmlint -r "$source_dir/packaging/rpm/nicd.rpmlintrc" "$rpm" "$simrpm" >"$out/rpmlint.log" 2>&1 || true
if grep -q ': E: ' "$out/rpmlint.log" || ! grep -q ' 0 errors' "$out/rpmlint.log"; then
    echo "FAIL: rpmlint:"
    cat "$out/rpmlint.log"
    fail=1
fi

# The daemon's package does not need the simulator, and holds none of it.
for f in "$deb" "$rpm"; do
    if { dpkg-deb -f "$f" Depends 2>/dev/null; rpm -qp --requires "$f" 2>/dev/null; } | grep -q nicd-sim; then
        echo "FAIL: $(basename "$f") depends on nicd-sim"
        fail=1
    fi
done
dpkg-deb -c "$deb" >"$out/deb.list"
dpkg-deb -c "$simdeb" >"$out/simdeb.list"
! grep -q 'nicd-sim' "$out/deb.list" || { echo "FAIL: the nicd .deb ships the simulator"; fail=1; }
grep -q '/usr/bin/nicd-sim$' "$out/simdeb.list" || { echo "FAIL: nicd-sim .deb lacks /usr/bin/nicd-sim"; fail=1; }

# Stripped, in both formats; the .deb's symbols in -dbgsym, found by build-id.
mkdir -p "$out/deb" "$out/simdeb" "$out/rpm" "$out/simrpm"
dpkg-deb -x "$deb" "$out/deb"
dpkg-deb -x "$simdeb" "$out/simdeb"
(cd "$out/rpm" && rpm2cpio "$rpm" | cpio -idm --quiet)
(cd "$out/simrpm" && rpm2cpio "$simrpm" | cpio -idm --quiet)
plugin=$(cd "$out/deb" && ls usr/lib/*/nicd/plugins/nicd-plugin-mlx5.so)
bnxt=$(cd "$out/deb" && ls usr/lib/*/nicd/plugins/nicd-plugin-bnxt.so)
for bin in deb/usr/sbin/nicd deb/usr/bin/nicctl "deb/$plugin" "deb/$bnxt" simdeb/usr/bin/nicd-sim \
    rpm/usr/sbin/nicd rpm/usr/bin/nicctl "rpm/$plugin" "rpm/$bnxt" simrpm/usr/bin/nicd-sim; do
    file -b "$out/$bin" | grep -q ', stripped' || { echo "FAIL: $bin is not stripped"; fail=1; }
done
for pair in "nicd usr/sbin/nicd" "nicd usr/bin/nicctl" "nicd-sim usr/bin/nicd-sim"; do
    set -- $pair
    dir=deb
    [ "$1" = nicd-sim ] && dir=simdeb
    id=$(file -b "$out/$dir/$2" | sed -n 's/.*BuildID\[sha1\]=\([0-9a-f]*\).*/\1/p')
    ddeb=$(ls "$pkgs/$1-dbgsym_"*.ddeb 2>/dev/null || true)
    [ -n "$ddeb" ] && dpkg-deb -c "$ddeb" >"$out/ddeb.list" &&
        grep -q "/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug$" "$out/ddeb.list" ||
        { echo "FAIL: no debug symbols for $2 (build-id $id) in $1-dbgsym"; fail=1; }
done

# Man pages: there, gzip -9n, no warning from groff (what lintian runs), every binary has one.
for page in man8/nicd.8 man5/nicd.conf.5 man8/nicctl.8; do
    [ -f "$out/deb/usr/share/man/$page.gz" ] || { echo "FAIL: nicd .deb lacks $page.gz"; fail=1; continue; }
    warnings=$(LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 man --warnings -E UTF-8 -l -Tutf8 -Z \
        "$out/deb/usr/share/man/$page.gz" 2>&1 >/dev/null || true)
    [ -z "$warnings" ] || { echo "FAIL: $page: $warnings"; fail=1; }
done
[ -f "$out/simdeb/usr/share/man/man1/nicd-sim.1.gz" ] || { echo "FAIL: nicd-sim .deb lacks nicd-sim(1)"; fail=1; }
grep -q 'PollIntervalMs' <(zcat "$out/deb/usr/share/man/man5/nicd.conf.5.gz") ||
    { echo "FAIL: nicd.conf(5) does not list the keys"; fail=1; }

# Completions and the interface XML, as the source tree has them.
for f in usr/share/bash-completion/completions/nicctl usr/share/bash-completion/completions/nicd \
    usr/share/zsh/vendor-completions/_nicctl usr/share/zsh/vendor-completions/_nicd; do
    [ -s "$out/deb/$f" ] || { echo "FAIL: nicd .deb lacks /$f"; fail=1; }
done
for f in usr/share/bash-completion/completions/nicd-sim usr/share/zsh/vendor-completions/_nicd-sim; do
    [ -s "$out/simdeb/$f" ] || { echo "FAIL: nicd-sim .deb lacks /$f"; fail=1; }
done
for xml in "$source_dir"/dbus/io.nicd.Nicd1.*.xml; do
    cmp -s "$xml" "$out/deb/usr/share/dbus-1/interfaces/$(basename "$xml")" ||
        { echo "FAIL: /usr/share/dbus-1/interfaces/$(basename "$xml") missing or different"; fail=1; }
done

# The packaged unit: exposure at most 2.5 ("systemd-networkd" is 2.8).
unit=lib/systemd/system/nicd.service
[ -f "$out/deb/$unit" ] || unit=usr/lib/systemd/system/nicd.service
score=$(systemd-analyze security --offline=true --no-pager "$out/deb/$unit" 2>/dev/null |
    sed -n 's/.*Overall exposure level for nicd.service: \([0-9.]*\).*/\1/p')
if [ -z "$score" ] || ! awk -v s="$score" 'BEGIN { exit !(s <= 2.5) }'; then
    echo "FAIL: systemd-analyze security rates the packaged unit '${score:-?}' (want <= 2.5)"
    fail=1
fi

[ "$fail" = 0 ] && echo "packages pass policy: lintian clean, rpmlint without errors, stripped, exposure $score"
exit "$fail"
