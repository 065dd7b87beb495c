#!/usr/bin/env bash
# The switch side of the fleet path, with the real servers: three nodes' textfiles as nicd writes
# them (nicd_port_neighbor_info per LLDP neighbour, docs/metrics.md), each served by its own
# prometheus-node-exporter → prometheus evaluating the shipped rules → prometheus-alertmanager with
# the shipped route and inhibitions → a webhook receiver here. gpu1 and gpu2 hear leaf-07 on a
# port, gpu3 leaf-08. While healthy, the switch counts read 0 and nothing alerts. Then the three
# ports go down at once: NicdSwitchSuspected{switch="leaf-07"} arrives, paged; gpu1's and gpu2's
# port_down alerts reach Alertmanager with switch="leaf-07" and are silenced; gpu3's, alone on
# leaf-08, arrives. gpu1 and gpu2 come back: the switch alert resolves. The textfiles are written
# here, not by nicd (which needs lldpd or a capture for neighbours: the lldp test label), so this
# holds the rules and the fragment to the textfile's contract. As in fleet_alerting_test.sh the
# for: and Alertmanager's waits are shortened in copies; the port alerts wait 10 s, so that the
# switch alert (no for:) is firing before them as it is with the shipped minutes.
set -euo pipefail
src=${NICD_SOURCE_DIR:?}
# shellcheck source=support/servers.sh
source "$(dirname "$0")/support/servers.sh"

# textfile NODE PORT_HEALTH SWITCH: nicd's series for one port of a node (mlx5_0 port 1), fatal
# port_down when PORT_HEALTH is 2, first seen when first written so.
textfile() {
    local dir="$work/$1" since
    mkdir -p "$dir"
    since=$(cat "$dir/since" 2>/dev/null || true)
    if [ "$2" = 2 ] && [ -z "$since" ]; then
        since=$(date +%s)
        echo "$since" >"$dir/since"
    fi
    [ "$2" = 2 ] || rm -f "$dir/since"
    {
        echo "nicd_up 1"
        echo "nicd_last_cycle_timestamp_seconds $(date +%s)"
        echo "nicd_port_health{device=\"mlx5_0\",port=\"1\"} $2"
        echo "nicd_port_neighbor_info{device=\"mlx5_0\",port=\"1\",netdev=\"eth2\",chassis_id=\"0c:42:a1:00:00:0${3: -1}\",system_name=\"$3\",port_id=\"swp1${1: -1}\"} 1"
        if [ "$2" = 2 ]; then
            echo "nicd_condition_active{device=\"mlx5_0\",port=\"1\",code=\"port_down\",severity=\"fatal\",action=\"check_cable\"} 1"
            echo "nicd_condition_since_timestamp_seconds{device=\"mlx5_0\",port=\"1\",code=\"port_down\"} $since"
        fi
    } >"$dir/.nicd.prom.tmp"
    mv "$dir/.nicd.prom.tmp" "$dir/nicd.prom"
}
declare -A ne_ports
for node in gpu1 gpu2 gpu3; do
    sw=leaf-07
    [ "$node" = gpu3 ] && sw=leaf-08
    textfile "$node" 0 "$sw"
    ne_ports[$node]=$(freeport)
    job prometheus-node-exporter --web.listen-address="127.0.0.1:${ne_ports[$node]}" --collector.disable-defaults \
        --collector.textfile --collector.textfile.directory="$work/$node" >"$work/ne-$node.log" 2>&1
    started "http://127.0.0.1:${ne_ports[$node]}/metrics"
done

# The webhook: every notification body, one JSON document per line.
start_webhook "$work/hooks.jsonl"

webhook_alertmanager_conf "$src/etc/alertmanager/nicd.yml" "$work/alertmanager.yml"
start_alertmanager "$work/alertmanager.yml"

start_rules_prometheus "$src/etc/prometheus/nicd.rules.yml" 10s "127.0.0.1:${ne_ports[gpu1]}" \
    "127.0.0.1:${ne_ports[gpu2]}" "127.0.0.1:${ne_ports[gpu3]}"

# value QUERY: the query's one value, or nothing.
value() {
    curl -fs "$prom_url/api/v1/query" --data-urlencode "query=$1" |
        python3 -c 'import json, sys; r = json.load(sys.stdin)["data"]["result"]; print(r[0]["value"][1] if len(r) == 1 else "")'
}
wait_value() { # QUERY WANT SECONDS
    local got=
    for _ in $(seq $(($3 * 10))); do
        got=$(value "$1")
        [ "$got" = "$2" ] && return 0
        sleep 0.1
    done
    echo "FAIL: $1 is '$got', want $2 within $3 s"
    tail -n 5 "$work/prom.log"
    exit 1
}
# notified STATUS: "alertname status instance switch severity" of every alert notified so far.
notified() {
    python3 - "$work/hooks.jsonl" "$1" <<'PY'
import json, sys
path, status = sys.argv[1:]
for line in open(path):
    for a in json.loads(line)["alerts"]:
        l = a["labels"]
        if a["status"] == status:
            print(l["alertname"], a["status"], l.get("instance", "-"), l.get("switch", "-"),
                  l.get("severity"))
PY
}
wait_notified() { # STATUS PATTERN SECONDS
    for _ in $(seq $(($3 * 10))); do
        notified "$1" | grep -q -- "$2" && return 0
        sleep 0.1
    done
    echo "FAIL: no $1 notification matching '$2' within $3 s; notified:"
    notified firing | sort -u
    notified resolved | sort -u
    tail -n 5 "$work/prom.log" "$work/am.log"
    exit 1
}

# Healthy: every switch heard, no bad port, nothing alerts.
wait_value 'nicd:switch_ports_bad:count{system_name="leaf-07"}' 0 30
wait_value 'nicd:switch_ports_bad:count{system_name="leaf-08"}' 0 10
wait_value 'count(nicd:port_switch:info)' 3 10
sleep 3
[ -z "$(notified firing)" ] || { echo "FAIL: healthy nodes alerted:"; notified firing | sort -u; exit 1; }

# The three ports go down together.
for node in gpu1 gpu2 gpu3; do
    sw=leaf-07
    [ "$node" = gpu3 ] && sw=leaf-08
    textfile "$node" 2 "$sw"
done
wait_notified firing '^NicdSwitchSuspected firing - leaf-07 critical$' 30
wait_value 'nicd:switch_nodes_bad:count{system_name="leaf-07"}' 2 5
wait_value 'nicd:switch_ports_bad:count{system_name="leaf-08"}' 1 5
gpu3=127.0.0.1:${ne_ports[gpu3]}
wait_notified firing "^NicdConditionFatal firing $gpu3 leaf-08 critical$" 30
sleep 3 # gpu1's and gpu2's port alerts fired with gpu3's: Alertmanager has them, silenced
states=$(curl -fs "$am_url/api/v2/alerts" | python3 -c '
import json, sys
for a in json.load(sys.stdin):
    l = a["labels"]
    print(l["alertname"], l.get("instance", "-"), l.get("switch", "-"), a["status"]["state"])' | sort)
want=$(sort <<WANT
NicdConditionFatal 127.0.0.1:${ne_ports[gpu1]} leaf-07 suppressed
NicdConditionFatal 127.0.0.1:${ne_ports[gpu2]} leaf-07 suppressed
NicdConditionFatal $gpu3 leaf-08 active
NicdSwitchSuspected - leaf-07 active
WANT
)
[ "$states" = "$want" ] || { echo "FAIL: Alertmanager's alerts:"; diff <(echo "$want") <(echo "$states") || true; exit 1; }
others=$(notified firing | sort -u | grep -v -e '^NicdSwitchSuspected firing - leaf-07 ' -e "^NicdConditionFatal firing $gpu3 " || true)
[ -z "$others" ] || { echo "FAIL: silenced alerts were notified:"; echo "$others"; exit 1; }

# gpu1 and gpu2 come back: the leaf is no longer suspected.
textfile gpu1 0 leaf-07
textfile gpu2 0 leaf-07
wait_notified resolved '^NicdSwitchSuspected resolved - leaf-07 critical$' 30
echo "PASS"
