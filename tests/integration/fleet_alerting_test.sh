#!/usr/bin/env bash
# The fleet path end to end, with the real servers: nicd watching the simulated node →
# prometheus-node-exporter's textfile collector → prometheus evaluating the shipped rules →
# prometheus-alertmanager with the shipped route and inhibitions → a webhook receiver here. A
# compute NIC's link goes down: the alert arrives with its device, port, code, action, severity
# and runbook link; the link comes back: the resolve arrives; no other device ever alerts. The
# rules' for: and Alertmanager's waits are shortened in copies (the shipped values are tested by
# prometheus_rules_test.sh). The servers: support/servers.sh.
set -euo pipefail
src=${NICD_SOURCE_DIR:?}
build=${NICD_BUILD_DIR:?}
# shellcheck source=support/servers.sh
source "$(dirname "$0")/support/servers.sh"

root="$work/node"
"$build/tools/nicd-sim/nicd-sim" create "$root" >/dev/null
printf '[daemon]\nPollIntervalMs=500\n[provision]\nMode=off\n[signals]\nEnable=no\n' >"$work/nicd.conf"
job "$build/daemon/nicd" --root "$root" --config "$work/nicd.conf" --plugin-directory "$build/plugins" --no-dbus --log-level warn \
    >"$work/nicd.log" 2>&1

start_node_exporter "$root/var/lib/prometheus/node-exporter"

# The webhook: every notification body, one JSON document per line.
start_webhook "$work/hooks.jsonl"

webhook_alertmanager_conf "$src/etc/alertmanager/nicd.yml" "$work/alertmanager.yml"
start_alertmanager "$work/alertmanager.yml"

start_rules_prometheus "$src/etc/prometheus/nicd.rules.yml" 2s "127.0.0.1:$ne_port"
prometheus_has nicd_up

# notified STATUS DEVICE: the alerts of every notification so far with that status and device,
# as "alertname status device port code action severity runbook_url" lines.
notified() {
    python3 - "$work/hooks.jsonl" "$1" "$2" <<'PY'
import json, sys
path, status, device = sys.argv[1:]
for line in open(path):
    for a in json.loads(line)["alerts"]:
        l = a["labels"]
        if a["status"] == status and (device == "*" or str(l.get("device")) == device):
            print(l["alertname"], a["status"], l.get("device"), l.get("port"), l.get("code"),
                  l.get("action"), l.get("severity"), a["annotations"].get("runbook_url"))
PY
}
wait_for() { # STATUS DEVICE SECONDS
    for _ in $(seq $(($3 * 10))); do
        [ -n "$(notified "$1" "$2")" ] && return 0
        sleep 0.1
    done
    echo "FAIL: no $1 notification for $2 within $3 s"
    cat "$work/hooks.jsonl"
    tail -5 "$work/prom.log" "$work/am.log"
    exit 1
}

sleep 5 # a healthy node: a few evaluations, nothing may fire
[ -z "$(notified firing '*')" ] || { echo "FAIL: a healthy node alerted:"; notified firing '*'; exit 1; }

"$build/tools/nicd-sim/nicd-sim" inject "$root" link-down mlx5_1
wait_for firing mlx5_1 30
# Alertmanager notifies the group again as alerts join it (netdev_down follows port_down): the
# same alert may arrive in several notifications, each the same.
fatal=$(notified firing mlx5_1 | grep '^NicdConditionFatal firing mlx5_1 1 port_down ' | sort -u || true)
[ "$fatal" = "NicdConditionFatal firing mlx5_1 1 port_down check_cable critical docs/runbook.md#check_cable" ] ||
    { echo "FAIL: the port_down alert arrived as:"; notified firing mlx5_1; exit 1; }

"$build/tools/nicd-sim/nicd-sim" inject "$root" link-up mlx5_1
wait_for resolved mlx5_1 30
[ -n "$(notified resolved mlx5_1 | grep '^NicdConditionFatal resolved mlx5_1 1 port_down ')" ] ||
    { echo "FAIL: no resolve of port_down:"; notified resolved mlx5_1; exit 1; }

# mlx5_1 is one of the four compute NICs the node's four GPUs expect (ExpectPorts=auto): the node
# itself is short while it is down, one alert of the node (no device label).
wait_for firing None 30
short=$(notified firing None | grep '^NicdInventoryShort firing None 0 inventory_short.compute ' | sort -u || true)
# Its action is its cause's: a port down is a cable.
[ "$short" = "NicdInventoryShort firing None 0 inventory_short.compute check_cable critical docs/runbook.md#check_cable" ] ||
    { echo "FAIL: the node's inventory_short.compute alert arrived as:"; notified firing '*'; exit 1; }

others=$(notified firing '*' | grep -v ' mlx5_1 ' | grep -v '^NicdInventoryShort firing None ' || true)
[ -z "$others" ] || { echo "FAIL: healthy devices alerted:"; echo "$others"; exit 1; }
echo "PASS"
