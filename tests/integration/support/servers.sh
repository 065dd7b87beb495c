# shellcheck shell=bash
# The real servers of the fleet tests, on 127.0.0.1: free ports, a scratch directory, and every
# process started here stopped (and the directory removed) when the test exits (scripts/lib/jobs.sh:
# `job COMMAND...` starts one more). Source it; it sets $work and provides:
#   freeport                       a TCP port nothing listens on (scripts/lib/freeport.sh)
#   started URL                    waits until URL answers (fails the test with the logs if not)
#   start_node_exporter DIR        node_exporter's textfile collector on DIR; sets $ne_port
#   start_prometheus YAML          prometheus with that configuration; sets $prom_port, $prom_url
#   start_alertmanager YAML        alertmanager with that configuration; sets $am_port, $am_url
#   prometheus_has QUERY           waits until QUERY returns a sample
# shellcheck source=SCRIPTDIR/../../../scripts/lib/jobs.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../../scripts/lib/jobs.sh"
# shellcheck source=SCRIPTDIR/../../../scripts/lib/freeport.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../../scripts/lib/freeport.sh"
jobs_work_dir nicd-servers

started() {
    for _ in $(seq 300); do curl -fs "$1" >/dev/null 2>&1 && return 0; sleep 0.1; done
    echo "FAIL: $1 does not answer"
    tail -n 20 "$work"/*.log
    exit 1
}

start_node_exporter() {
    ne_port=$(freeport)
    job prometheus-node-exporter --web.listen-address="127.0.0.1:$ne_port" --collector.disable-defaults \
        --collector.textfile --collector.textfile.directory="$1" >"$work/ne.log" 2>&1
    started "http://127.0.0.1:$ne_port/metrics"
}

start_prometheus() {
    prom_port=$(freeport)
    prom_url="http://127.0.0.1:$prom_port"
    printf '%s\n' "$1" >"$work/prometheus.yml"
    job prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/tsdb" \
        --web.listen-address="127.0.0.1:$prom_port" >"$work/prom.log" 2>&1
    started "$prom_url/-/ready"
}

start_alertmanager() {
    am_port=$(freeport)
    am_url="http://127.0.0.1:$am_port"
    job prometheus-alertmanager --config.file="$1" --storage.path="$work/am" \
        --web.listen-address="127.0.0.1:$am_port" --cluster.listen-address= >"$work/am.log" 2>&1
    started "$am_url/-/ready"
}

prometheus_has() {
    for _ in $(seq 300); do
        curl -fs "$prom_url/api/v1/query" --data-urlencode "query=$1" | grep -q '"value"' && return 0
        sleep 0.1
    done
    echo "FAIL: prometheus has no $1"
    tail -n 20 "$work"/*.log
    exit 1
}
