#!/usr/bin/env bash
# The shipped Grafana dashboard (etc/grafana/nicd.json): a valid dashboard model (schema
# version, unique panel ids, every panel on the datasource variable, the instance and device
# variables), and every panel query and variable query parsing and returning data from a real
# Prometheus scraping a real node_exporter that serves nicd's textfile of the simulated node
# (the shipped rules loaded too). Every recorded series a panel reads is one the shipped rules
# record, and the fleet's "Bad ports by switch" panel is there. The switch-side series need a
# port's LLDP neighbour (nicd_port_neighbor_info): their panels must return data only where the
# simulated node has one. The servers: support/servers.sh.
set -euo pipefail
src=${NICD_SOURCE_DIR:?}
build=${NICD_BUILD_DIR:?}
dash="$src/etc/grafana/nicd.json"
# shellcheck source=support/servers.sh
source "$(dirname "$0")/support/servers.sh"

# The node: two nicd --once runs two seconds apart (a congestion window, a pre-FEC BER).
root="$work/node"
"$build/tools/nicd-sim/nicd-sim" create "$root" >/dev/null
printf '[signals]\nIntervalSec=1\n' >"$work/nicd.conf"
nicd() { "$build/daemon/nicd" --root "$root" --config "$work/nicd.conf" --plugin-directory "$build/plugins" --no-dbus --once --log-level error >/dev/null; }
nicd
"$build/tools/nicd-sim/nicd-sim" tick "$root" --seconds 2 >/dev/null
sleep 2.1
nicd
# The panels read what a default configuration writes: the counter budget's set, not every
# statistic of the netdevs ([textfile] Counters=default: no per-channel one).
if grep -q 'stat="[rt]x[0-9][0-9]*_' "$root/var/lib/prometheus/node-exporter/nicd.prom"; then
    echo "FAIL: the textfile carries per-channel statistics: not the default counter budget"
    exit 1
fi

start_node_exporter "$root/var/lib/prometheus/node-exporter"
start_prometheus "global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files: [$src/etc/prometheus/nicd.rules.yml]
scrape_configs:
  - job_name: node
    static_configs:
      - targets: [\"127.0.0.1:$ne_port\"]"
prometheus_has 'count(nicd_up)'
sleep 3 # a few scrapes, so that rate() has two samples

python3 - "$dash" "$prom_url" "$src/etc/prometheus/nicd.rules.yml" <<'PY'
import json, re, sys, urllib.parse, urllib.request
import yaml
dash_file, url, rules_file = sys.argv[1:4]
d = json.load(open(dash_file))
recorded = {r["record"] for g in yaml.safe_load(open(rules_file))["groups"]
            for r in g["rules"] if "record" in r}
fail = []
def check(cond, what):
    if not cond:
        fail.append(what)
check(isinstance(d.get("schemaVersion"), int) and d["schemaVersion"] >= 30, "schemaVersion")
check(bool(d.get("uid")) and bool(d.get("title")), "uid and title")
ids = [p["id"] for p in d["panels"]]
check(len(ids) == len(set(ids)), "unique panel ids: %s" % ids)
variables = {v["name"]: v for v in d["templating"]["list"]}
check(variables.get("datasource", {}).get("type") == "datasource" and
      variables["datasource"].get("query") == "prometheus", "a prometheus datasource variable")
for name in ("instance", "device"):
    check(name in variables, "variable " + name)
def run(expr):
    expr = (expr.replace("$instance", ".*").replace("$device", ".*")
            .replace("$__rate_interval", "1m"))
    q = urllib.parse.urlencode({"query": expr})
    with urllib.request.urlopen(url + "/api/v1/query?" + q) as r:
        return json.load(r)
titles = [p["title"] for p in d["panels"]]
check("Bad ports by switch" in titles, "a panel 'Bad ports by switch'")
has_neighbours = bool(run("count(nicd_port_neighbor_info)")["data"]["result"])
queries = 0
for p in d["panels"]:
    if p["type"] == "row":
        continue
    check(p.get("datasource", {}).get("uid") == "${datasource}", "panel %s datasource" % p["id"])
    check({"x", "y", "w", "h"} <= set(p.get("gridPos", {})), "panel %s gridPos" % p["id"])
    for t in p["targets"]:
        queries += 1
        names = set(re.findall(r"nicd:[a-z_]+:[a-z_0-9]+", t["expr"]))
        check(names <= recorded, "panel %r reads series no rule records: %s"
              % (p["title"], sorted(names - recorded)))
        switch_side = any(n.startswith(("nicd:switch_", "nicd:port_switch")) for n in names)
        try:
            res = run(t["expr"])
        except Exception as e:
            fail.append("panel %r: %s: %s" % (p["title"], t["expr"], e))
            continue
        check(res.get("status") == "success", "panel %r: %s: %s" % (p["title"], t["expr"], res))
        check(res.get("data", {}).get("result") or (switch_side and not has_neighbours),
              "panel %r returns no data: %s" % (p["title"], t["expr"]))
for name in ("instance", "device"):
    q = variables[name]["query"]["query"]
    inner = q[len("label_values("):-1]
    metric, label = inner.rsplit(",", 1)
    res = run("count by (%s) (%s)" % (label.strip(), metric))
    check(res.get("status") == "success" and res["data"]["result"],
          "variable %s returns no values" % name)
if fail:
    print("\n".join("FAIL: " + f for f in fail))
    sys.exit(1)
print("PASS: %d panels, %d queries%s" % (len(ids), queries,
      "" if has_neighbours else " (no LLDP neighbour on the node: the switch panel's queries parse, no data asked)"))
PY
