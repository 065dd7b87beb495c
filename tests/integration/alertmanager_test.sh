#!/usr/bin/env bash
# The shipped Alertmanager fragment (etc/alertmanager/nicd.yml) in a real prometheus-alertmanager
# on 127.0.0.1: amtool accepts it, nicd's alerts route to the page and ticket receivers by
# severity (others stay with the site's default), and the inhibitions hold: a fatal device
# silences its degraded and port alerts but not another device's, a fatal port the degraded
# alerts of that port only, a stale nicd every other alert of its node.
set -euo pipefail
src=${NICD_SOURCE_DIR:?}
conf="$src/etc/alertmanager/nicd.yml"
amtool check-config "$conf" >/dev/null
route() { amtool config routes test --config.file="$conf" "$@" 2>/dev/null; }
fail=0
expect_route() {
    local want=$1
    shift
    local got
    got=$(route "$@")
    [ "$got" = "$want" ] || { echo "FAIL: $* routes to '$got', want '$want'"; fail=1; }
}
expect_route nicd-page alertname=NicdConditionFatal severity=critical
expect_route nicd-page alertname=NicdStale severity=critical
expect_route nicd-ticket alertname=NicdConditionDegraded severity=warning
expect_route default alertname=NodeFilesystemFull severity=critical

# shellcheck source=support/servers.sh
source "$(dirname "$0")/support/servers.sh"
start_alertmanager "$conf"
url=$am_url

alert() { # name instance device port severity
    printf '{"labels":{"alertname":"%s","instance":"%s","device":"%s","port":"%s","severity":"%s"}}' "$@"
}
alerts="[$(alert NicdConditionFatal gpu1 mlx5_0 0 critical),
$(alert NicdConditionDegraded gpu1 mlx5_0 1 warning),
$(alert NicdConditionFatal gpu1 mlx5_0 1 critical),
$(alert NicdCongestionNeedsAction gpu1 mlx5_0 1 warning),
$(alert NicdConditionDegraded gpu1 mlx5_1 1 warning),
$(alert NicdConditionFatal gpu3 mlx5_2 1 critical),
$(alert NicdConditionDegraded gpu3 mlx5_2 1 warning),
$(alert NicdConditionDegraded gpu3 mlx5_2 2 warning),
$(alert NicdStale gpu2 "" "" critical),
$(alert NicdConditionDegraded gpu2 mlx5_0 1 warning)]"
curl -fs -XPOST -H 'Content-Type: application/json' -d "$alerts" "$url/api/v2/alerts" >/dev/null
# "name instance device port state" per alert, sorted.
got=$(curl -fs "$url/api/v2/alerts" | python3 -c '
import json, sys
for a in json.load(sys.stdin):
    l = a["labels"]
    print(l["alertname"], l["instance"], l.get("device") or "-", l.get("port") or "-",
          a["status"]["state"])' | sort)
want=$(sort <<'WANT'
NicdConditionFatal gpu1 mlx5_0 0 active
NicdConditionDegraded gpu1 mlx5_0 1 suppressed
NicdConditionFatal gpu1 mlx5_0 1 suppressed
NicdCongestionNeedsAction gpu1 mlx5_0 1 suppressed
NicdConditionDegraded gpu1 mlx5_1 1 active
NicdConditionFatal gpu3 mlx5_2 1 active
NicdConditionDegraded gpu3 mlx5_2 1 suppressed
NicdConditionDegraded gpu3 mlx5_2 2 active
NicdStale gpu2 - - active
NicdConditionDegraded gpu2 mlx5_0 1 suppressed
WANT
)
if [ "$got" != "$want" ]; then
    echo "FAIL: inhibitions"
    diff <(echo "$want") <(echo "$got") || true
    fail=1
fi
[ "$fail" = 0 ] && echo PASS
exit "$fail"
