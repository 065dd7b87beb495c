#!/usr/bin/env bash
# The README's, the docs' and the shipped nicd.conf's numbers, paths and names against what the
# binaries do (man_pages_test.sh holds the options and completions to them):
#  (a) the plugin directory the docs name is the one nicd loads from;
#  (b) the series a RoCE port carries by default (README, docs/metrics.md, nicd.conf) are what
#      nicd --once writes on a simulated node, for mlx5 and for bnxt;
#  (c) every fault nicd-sim inject takes is in the README's list.
# (The condition codes and event kinds against the docs: tests/unit/conditions_doc_test.cpp.)
set -euo pipefail
build=${NICD_BUILD_DIR:?}
src=${NICD_SOURCE_DIR:?}
nicd=$build/daemon/nicd
sim=$build/tools/nicd-sim/nicd-sim

fail=0
failure() {
    echo "FAIL: $*"
    fail=1
}
for b in "$nicd" "$sim"; do
    [ -x "$b" ] || { echo "FAIL: $b is not built"; exit 1; }
done
. "$src/scripts/lib/jobs.sh"
jobs_work_dir nicd-docs
tmp=$work

# --- (a) the plugin directory ---------------------------------------------------------------
plugin_dir=$(grep -ao '/usr/lib[a-z0-9_/-]*/nicd/plugins' "$nicd" | sort -u)
[ "$(wc -l <<<"$plugin_dir")" = 1 ] || failure "nicd holds no single plugin directory: $plugin_dir"
while IFS= read -r hit; do
    file=${hit%%:*}
    path=$(grep -o '/usr/lib[a-z0-9_/@{}-]*/nicd/plugins' <<<"${hit#*:}" | head -1)
    [ "$path" = "$plugin_dir" ] || failure "$file names the plugin directory $path; nicd loads $plugin_dir"
done < <(cd "$src" && grep -rn '/usr/lib[a-z0-9_/-]*/nicd/plugins' README.md docs/*.md docs/man/*)

# --- (b) the default series of a RoCE port ----------------------------------------------------
node=$tmp/node
"$sim" create "$node" --vendor mlx5,bnxt >/dev/null
printf '[provision]\nMode=off\n[signals]\nEnable=no\n' >"$tmp/nicd.conf"
"$nicd" --root "$node" --config "$tmp/nicd.conf" --plugin-directory "$build/plugins" --no-dbus \
    --once --log-level error >"$tmp/once.out" 2>&1 || { cat "$tmp/once.out"; failure "nicd --once failed"; }
prom=$node/var/lib/prometheus/node-exporter/nicd.prom
# The counter series of one port (docs/metrics.md, "Which counters the textfile carries"): the
# PMA's, the netdev's ethtool statistics and the driver's hw_counters, with its device and port.
series_of() { # DEVICE
    grep -E "^(nicd_ib_port_[a-z_]+_total|nicd_netdev_ethtool_total|nicd_port_hw_stat_total)\{[^}]*device=\"$1\",port=\"1\"" "$prom" |
        wc -l
}
mlx5_dev=$("$sim" list "$node" | awk '$0 ~ /mlx5/ && $0 ~ /ACTIVE/ { print $1; exit }')
bnxt_dev=$("$sim" list "$node" | awk '$0 ~ /bnxt/ && $0 ~ /ACTIVE/ { print $1; exit }')
mlx5_n=$(series_of "$mlx5_dev")
bnxt_n=$(series_of "$bnxt_dev")
[ "$mlx5_n" -gt 0 ] && [ "$bnxt_n" -gt 0 ] || failure "no counter series on $mlx5_dev/$bnxt_dev: $mlx5_n, $bnxt_n"
grep -q "$mlx5_n on an mlx5 RoCE port and $bnxt_n on a bnxt one" "$src/README.md" ||
    failure "README.md does not say $mlx5_n on an mlx5 RoCE port and $bnxt_n on a bnxt one"
grep -q "$mlx5_n on an mlx5 RoCE port, $bnxt_n on a bnxt one" "$src/etc/nicd.conf.in" ||
    failure "etc/nicd.conf.in does not say $mlx5_n on an mlx5 RoCE port, $bnxt_n on a bnxt one"
grep -q "the set below: $mlx5_n series on a RoCE port" "$src/docs/metrics.md" ||
    failure "docs/metrics.md does not say $mlx5_n series on a RoCE port"

# --- (c) the README's fault list --------------------------------------------------------------
faults=$("$sim" inject --help | sed -n '/^Subcommands:/,/^$/p' | sed -n 's/^  \([a-z][a-z0-9-]*\) .*/\1/p')
[ -n "$faults" ] || failure "nicd-sim inject --help lists no fault"
readme_faults=$(sed -n '/^nicd-sim inject /,/^nicd-sim list/p' "$src/README.md")
for f in $faults; do
    case $f in *-clear) continue ;; esac # "(and each <fault>-clear"
    grep -qE "(^|[ ,])$f([ ,;]|$)" <<<"$readme_faults" || failure "README's fault list lacks $f"
done

[ "$fail" = 0 ] && echo "PASS"
exit "$fail"
