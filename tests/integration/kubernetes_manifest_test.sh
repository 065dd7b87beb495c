#!/usr/bin/env bash
# deploy/kubernetes/ as kubectl reads it with no cluster, and the least privilege it promises:
#   - `kubectl kustomize` builds it (every document parses and is a resource with an apiVersion,
#     a kind and a name, none twice) into the six objects nicd needs;
#   - `kubectl set env --local` decodes the DaemonSet into Kubernetes' own apps/v1 types (every
#     field's type; unknown field names are not caught: that needs the API server's schema);
#   - no container is privileged or joins the host's PID or IPC namespace; nicd adds exactly the
#     capabilities of units/nicd.service.in's CapabilityBoundingSet= and the others none; every
#     container drops ALL and cannot gain privileges; the host paths are the ones nicd reads or
#     writes, the journal read-only; the probes run the image's nicd-liveness;
#   - the node-problem-detector monitor: one rule per condition (two would overwrite each other),
#     every action a fatal condition can carry (docs/conditions.md) has its condition whose reason
#     is Nicd<Action>, each rule runs the image's nicd-npd-check on the pod's bus.
# Skipped (77) only when kubectl or python3-yaml is not installed.
set -euo pipefail
src=${NICD_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
command -v kubectl >/dev/null || { echo "SKIP: kubectl is not installed (scripts/install-deps.sh installs it)"; exit 77; }
python3 -c 'import yaml' 2>/dev/null || { echo "SKIP: python3-yaml is not installed"; exit 77; }
out=$(mktemp -d /tmp/nicd-manifest.XXXXXX)
trap 'rm -rf "$out"' EXIT
dir=$src/deploy/kubernetes

kubectl kustomize "$dir" >"$out/built.yaml" || { echo "FAIL: kubectl kustomize $dir"; exit 1; }
python3 - "$out/built.yaml" "$out/ds.yaml" <<'EOF'
import sys, yaml
docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
yaml.safe_dump([d for d in docs if d["kind"] == "DaemonSet"][0], open(sys.argv[2], "w"))
EOF
kubectl set env --local -f "$out/ds.yaml" NICD_CHECK=1 -o name >/dev/null ||
    { echo "FAIL: kubectl cannot decode the DaemonSet as apps/v1"; exit 1; }

python3 - "$out/built.yaml" "$src" <<'EOF'
import json, re, sys, yaml
built, src = sys.argv[1], sys.argv[2]
fails = []
def check(ok, what):
    if not ok:
        fails.append(what)
docs = [d for d in yaml.safe_load_all(open(built)) if d]
kinds = sorted(f"{d['kind']}/{d['metadata']['name']}" for d in docs)
check(kinds == sorted(["Namespace/nicd", "ServiceAccount/nicd", "ClusterRoleBinding/nicd-node-problem-detector",
                       "ConfigMap/nicd-config", "ConfigMap/nicd-npd-monitor", "DaemonSet/nicd"]),
      f"the objects: {kinds}")
by = {(d["kind"], d["metadata"]["name"]): d for d in docs}
pod = by[("DaemonSet", "nicd")]["spec"]["template"]["spec"]
containers = {c["name"]: c for c in pod["containers"] + pod.get("initContainers", [])}
check(pod.get("hostNetwork") is True, "hostNetwork (rtnetlink DCB) is not set")
check(not pod.get("hostPID") and not pod.get("hostIPC"), "the pod joins the host's PID or IPC namespace")

unit = open(f"{src}/units/nicd.service.in").read()
bounding = re.search(r"^CapabilityBoundingSet=(.*)$", unit, re.M).group(1).split()
unit_caps = sorted(c.removeprefix("CAP_") for c in bounding)
for name, c in containers.items():
    sc = c.get("securityContext", {})
    check(not sc.get("privileged"), f"{name} is privileged")
    check(sc.get("allowPrivilegeEscalation") is False, f"{name} may gain privileges")
    check(sc.get("capabilities", {}).get("drop") == ["ALL"], f"{name} does not drop ALL capabilities")
    added = sorted(sc.get("capabilities", {}).get("add", []))
    check(added == (unit_caps if name == "nicd" else []),
          f"{name} adds {added}; the unit's CapabilityBoundingSet= is {unit_caps} (nicd only)")
    check(sc.get("readOnlyRootFilesystem") is True, f"{name}'s root file system is writable")

host = {v["name"]: v["hostPath"]["path"] for v in pod["volumes"] if "hostPath" in v}
check(sorted(host.values()) == sorted(["/sys", "/sys/devices", "/sys/kernel/config", "/dev/infiniband", "/var/log/journal",
                                       "/run/log/journal", "/etc/machine-id", "/var/lib/nicd",
                                       "/var/lib/prometheus/node-exporter"]),
      f"host paths: {sorted(host.values())}")
for name, c in containers.items():
    for m in c.get("volumeMounts", []):
        if m["name"] in host:
            check(name == "nicd", f"{name} mounts the host's {host[m['name']]}")
            check(m["mountPath"] == host[m["name"]], f"{host[m['name']]} is not at its host path")
            # Writable as in the unit (ReadWritePaths=): the NICs' sysfs, configfs, state, textfile.
            if host[m["name"]] in ("/sys", "/var/log/journal", "/run/log/journal", "/etc/machine-id",
                                   "/dev/infiniband"):
                check(m.get("readOnly") is True, f"{host[m['name']]} is writable")
            else:
                check(m.get("readOnly") is not True, f"{host[m['name']]} is read-only: nicd writes there")
nicd = containers["nicd"]
check("command" not in nicd and "args" not in nicd, "nicd does not run the image's entrypoint")
for probe in ("livenessProbe", "startupProbe"):
    cmd = nicd.get(probe, {}).get("exec", {}).get("command", [])
    check(cmd[:2] == ["/usr/share/nicd/kubernetes/nicd-liveness", "/run/nicd/heartbeat"],
          f"nicd's {probe} reads another liveness source than nicd's heartbeat: {cmd}")
# The heartbeat's directory is the pod's own, in memory, nicd's only.
run = [m for m in nicd["volumeMounts"] if m["mountPath"] == "/run/nicd"]
run_volume = [v for v in pod["volumes"] if run and v["name"] == run[0]["name"]]
check(run_volume and "emptyDir" in run_volume[0], f"/run/nicd is no emptyDir of the pod: {run_volume}")
check(all(m["mountPath"] != "/run/nicd" for n, c in containers.items() if n != "nicd"
          for m in c.get("volumeMounts", [])), "another container mounts nicd's /run/nicd")
config = [m for m in nicd["volumeMounts"] if m["name"] == "config"]
check(config and config[0]["mountPath"] == "/etc/nicd/kubernetes", "the ConfigMap is not where the entrypoint reads it")

# Every action of a fatal condition in docs/conditions.md has its NPD condition.
table = open(f"{src}/docs/conditions.md").read()
fatal_actions = set(re.findall(r"^\| `[^`]+`[^|]*\| fatal \| `([a-z_]+)` \|", table, re.M))
check(len(fatal_actions) >= 5, f"docs/conditions.md's fatal actions not found: {fatal_actions}")
monitor = json.loads(by[("ConfigMap", "nicd-npd-monitor")]["data"]["nicd-monitor.json"])
conditions = [c["type"] for c in monitor["conditions"]]
rules = monitor["rules"]
check(sorted(r["condition"] for r in rules) == sorted(conditions), "not one rule per condition")
camel = lambda a: "Nicd" + "".join(w.capitalize() for w in a.split("_"))
by_action = {r["args"][1]: r for r in rules if r["args"][:1] == ["--action"]}
check(set(by_action) == fatal_actions, f"actions with a condition {sorted(by_action)}; fatal ones {sorted(fatal_actions)}")
for action, r in by_action.items():
    check(r["reason"] == camel(action) == r["condition"], f"{action}'s rule: {r}")
for r in rules:
    check(r["path"] == "/usr/share/nicd/npd/nicd-npd-check", f"a rule runs {r['path']}")
    check(r["args"][-2:] == ["--bus", "unix:path=/run/nicd-bus/bus"], f"a rule asks another bus: {r['args']}")
npd_args = " ".join(containers["npd"]["command"])
check("--config.custom-plugin-monitor=/etc/nicd-npd/nicd-monitor.json" in npd_args, "NPD does not load the monitor")
for f in fails:
    print("FAIL:", f)
sys.exit(1 if fails else 0)
EOF
echo "PASS: deploy/kubernetes"
