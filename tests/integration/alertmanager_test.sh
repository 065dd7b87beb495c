#!/usr/bin/env bash
# The shipped Alertmanager fragment (etc/alertmanager/nicd.yml) in a real prometheus-alertmanager
# on 127.0.0.1: amtool accepts it, nicd's alerts route to the page and ticket receivers by
# severity (others stay with the site's default), and the inhibitions hold: a fatal device
# silences its degraded and port alerts but not another device's, a fatal port the degraded
# alerts of that port only, a stale nicd every other alert of its node, a suspected switch the
# port alerts of the ports cabled to it (their switch label) and no other: not another switch's,
# not a port's without the label, not the node's own. A suspected switch is grouped by switch.
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
expect_route nicd-page alertname=NicdSwitchSuspected severity=critical switch=leaf-07
expect_route nicd-ticket alertname=NicdSwitchSuspected severity=warning switch=leaf-07
expect_route nicd-page alertname=NicdConditionFatal severity=critical switch=leaf-07

# shellcheck source=support/servers.sh
source "$(dirname "$0")/support/servers.sh"
start_alertmanager "$conf"
url=$am_url

alert() { # name instance device port severity
    printf '{"labels":{"alertname":"%s","instance":"%s","device":"%s","port":"%s","severity":"%s"}}' "$@"
}
on_switch() { # name instance device port severity switch: a port alert of a port cabled to switch
    printf '{"labels":{"alertname":"%s","instance":"%s","device":"%s","port":"%s","severity":"%s","switch":"%s"}}' "$@"
}
suspected() { # switch severity
    printf '{"labels":{"alertname":"NicdSwitchSuspected","switch":"%s","severity":"%s"}}' "$@"
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
$(alert NicdConditionDegraded gpu2 mlx5_0 1 warning),
$(suspected leaf-07 critical),
$(suspected leaf-09 warning),
$(on_switch NicdConditionFatal gpu4 mlx5_0 1 critical leaf-07),
$(on_switch NicdConditionDegraded gpu4 mlx5_1 1 warning leaf-07),
$(on_switch NicdQosNotCompliant gpu5 mlx5_0 1 warning leaf-07),
$(on_switch NicdCongestionNeedsAction gpu5 mlx5_0 1 warning leaf-07),
$(on_switch NicdConditionFatal gpu6 mlx5_0 1 critical leaf-08),
$(alert NicdConditionFatal gpu7 mlx5_0 1 critical),
$(alert NicdInventoryShort gpu4 "" 0 critical)]"
curl -fs -XPOST -H 'Content-Type: application/json' -d "$alerts" "$url/api/v2/alerts" >/dev/null
# "name instance device port switch state" per alert, sorted.
got=$(curl -fs "$url/api/v2/alerts" | python3 -c '
import json, sys
for a in json.load(sys.stdin):
    l = a["labels"]
    print(l["alertname"], l.get("instance") or "-", l.get("device") or "-", l.get("port") or "-",
          l.get("switch") or "-", a["status"]["state"])' | sort)
want=$(sort <<'WANT'
NicdConditionFatal gpu1 mlx5_0 0 - active
NicdConditionDegraded gpu1 mlx5_0 1 - suppressed
NicdConditionFatal gpu1 mlx5_0 1 - suppressed
NicdCongestionNeedsAction gpu1 mlx5_0 1 - suppressed
NicdConditionDegraded gpu1 mlx5_1 1 - active
NicdConditionFatal gpu3 mlx5_2 1 - active
NicdConditionDegraded gpu3 mlx5_2 1 - suppressed
NicdConditionDegraded gpu3 mlx5_2 2 - active
NicdStale gpu2 - - - active
NicdConditionDegraded gpu2 mlx5_0 1 - suppressed
NicdSwitchSuspected - - - leaf-07 active
NicdSwitchSuspected - - - leaf-09 active
NicdConditionFatal gpu4 mlx5_0 1 leaf-07 suppressed
NicdConditionDegraded gpu4 mlx5_1 1 leaf-07 suppressed
NicdQosNotCompliant gpu5 mlx5_0 1 leaf-07 suppressed
NicdCongestionNeedsAction gpu5 mlx5_0 1 leaf-07 suppressed
NicdConditionFatal gpu6 mlx5_0 1 leaf-08 active
NicdConditionFatal gpu7 mlx5_0 1 - active
NicdInventoryShort gpu4 - 0 - active
WANT
)
if [ "$got" != "$want" ]; then
    echo "FAIL: inhibitions"
    diff <(echo "$want") <(echo "$got") || true
    fail=1
fi
# The suspected switches' groups: one per switch, keyed by the switch alone.
groups=$(curl -fs "$url/api/v2/alerts/groups" | python3 -c '
import json, sys
for g in json.load(sys.stdin):
    if any(a["labels"]["alertname"] == "NicdSwitchSuspected" for a in g["alerts"]):
        print(json.dumps(g["labels"], sort_keys=True), g["receiver"]["name"], len(g["alerts"]))' | sort)
want_groups='{"switch": "leaf-07"} nicd-page 1
{"switch": "leaf-09"} nicd-ticket 1'
[ "$groups" = "$want_groups" ] || { echo "FAIL: the suspected switches' groups:"; echo "$groups"; fail=1; }
[ "$fail" = 0 ] && echo PASS
exit "$fail"
