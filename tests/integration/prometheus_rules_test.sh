#!/usr/bin/env bash
# The shipped Prometheus rules (etc/prometheus/nicd.rules.yml): promtool accepts them, and
# tests/prometheus/nicd.rules.test.yml — every alert firing and not firing, its for: duration,
# the labels Alertmanager routes on and the runbook links — passes.
set -euo pipefail
src=${NICD_SOURCE_DIR:?}
promtool check rules "$src/etc/prometheus/nicd.rules.yml"
promtool test rules "$src/tests/prometheus/nicd.rules.test.yml"
# Every runbook link of the rules has its section in docs/runbook.md, and so has every action of
# the fixed set (an alert links to its condition's action).
anchor() { tr 'A-Z' 'a-z' | sed 's/ /-/g; s/[^a-z0-9_-]//g'; }
sections=$(sed -n 's/^## //p' "$src/docs/runbook.md" | anchor)
links=$(grep -o '#[a-z_-]*"' "$src/etc/prometheus/nicd.rules.yml" | tr -d '#"' | sort -u)
actions=$(sed -n '/^## Actions/,/^## Severities/s/^| `\([a-z_]*\)` |.*/\1/p' "$src/docs/conditions.md")
[ -n "$actions" ] || { echo "FAIL: no actions read from docs/conditions.md"; exit 1; }
for a in $links $actions; do
    grep -qx -- "$a" <<<"$sections" || { echo "FAIL: docs/runbook.md has no section #$a"; exit 1; }
done
# Every condition code of docs/conditions.md has its row in the runbook.
codes=$(sed -n '/^## Conditions/,$p' "$src/docs/conditions.md" | grep -o '^| `[^`]*`' | sort -u)
[ -n "$codes" ] || { echo "FAIL: no condition codes read from docs/conditions.md"; exit 1; }
while IFS= read -r code; do
    grep -qF -- "$code" "$src/docs/runbook.md" || { echo "FAIL: docs/runbook.md lacks $code"; exit 1; }
done <<<"$codes"
# A test that cannot fail is worth nothing: a broken copy of the rules must fail the same tests.
dir=$(mktemp -d /tmp/nicd-rules.XXXXXX)
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/etc/prometheus" "$dir/tests/prometheus"
sed 's/for: 15m/for: 1m/' "$src/etc/prometheus/nicd.rules.yml" >"$dir/etc/prometheus/nicd.rules.yml"
cp "$src/tests/prometheus/nicd.rules.test.yml" "$dir/tests/prometheus/"
if promtool test rules "$dir/tests/prometheus/nicd.rules.test.yml" >"$dir/out" 2>&1; then
    echo "FAIL: the rule tests pass on rules whose degraded alert waits 1 minute, not 15"
    exit 1
fi
echo "PASS"
