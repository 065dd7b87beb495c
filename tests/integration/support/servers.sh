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
#   start_webhook FILE             a webhook receiver writing each notification to FILE, one JSON
#                                  document a line; sets $hook_port
#   webhook_alertmanager_conf SRC OUT  Alertmanager's configuration SRC (the shipped routes and
#                                  inhibitions) with 1 s timers, every receiver the webhook
#   start_rules_prometheus RULES FOR TARGET...  prometheus evaluating the rule file RULES (every
#                                  alert's for: set to FOR) every second, scraping each TARGET
#                                  (host:port) every second and alerting the alertmanager started
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

start_webhook() {
    hook_port=$(freeport)
    touch "$1"
    python3 - "$hook_port" "$1" >"$work/hook.log" 2>&1 <<'PY' &
import http.server, json, sys
port, out = int(sys.argv[1]), sys.argv[2]
class Hook(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        with open(out, "a") as f:
            f.write(json.dumps(json.loads(body)) + "\n")
        self.send_response(200)
        self.end_headers()
    def do_GET(self):
        self.send_response(200)
        self.end_headers()
    def log_message(self, *args):
        pass
http.server.HTTPServer(("127.0.0.1", port), Hook).serve_forever()
PY
    pids+=($!)
}

start_rules_prometheus() {
    local rules=$1 hold=$2 targets
    shift 2
    targets=$(printf '"%s", ' "$@")
    sed -E "s/for: [0-9]+m/for: $hold/" "$rules" >"$work/nicd.rules.yml"
    start_prometheus "global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files: [$work/nicd.rules.yml]
alerting:
  alertmanagers:
    - static_configs:
        - targets: [\"127.0.0.1:$am_port\"]
scrape_configs:
  - job_name: node
    static_configs:
      - targets: [${targets%, }]"
}

webhook_alertmanager_conf() {
    python3 - "$1" "$2" "http://127.0.0.1:$hook_port/" <<'PY'
import sys, yaml
conf = yaml.safe_load(open(sys.argv[1]))
def fast(route):
    for k in ("group_wait", "group_interval", "repeat_interval"):
        if k in route:
            route[k] = "1s"
    for r in route.get("routes", []):
        fast(r)
fast(conf["route"])
for r in conf["receivers"]:
    r["webhook_configs"] = [{"url": sys.argv[3], "send_resolved": True}]
yaml.safe_dump(conf, open(sys.argv[2], "w"))
PY
}
