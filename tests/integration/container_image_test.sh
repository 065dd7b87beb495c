#!/usr/bin/env bash
# The OCI image (make image, scripts/build-image.sh) as the DaemonSet runs it
# (deploy/kubernetes/nicd.yaml), under podman on this machine: a bus container and a nicd container
# of the same image sharing the bus directory, nicd with the image's own entrypoint and only
# CAP_NET_ADMIN, its configuration mounted where the ConfigMap goes, against a simulated node
# (nicd-sim) mounted at /node and given with --root. It writes the textfile into the mounted node;
# nicctl status answers inside the container; the liveness probe passes while nicd cycles and fails
# once its loop is stopped; the node-problem-detector checks, as the sidecar runs them, raise
# NicdNicProblem and the condition of a compute port's action (check_cable), and no other.
# The image is built once per nicd .deb content and kept in podman's store (tag
# localhost/nicd-test:<hash>); building it takes a few minutes (mmdebstrap from the Debian
# mirror). Skipped (77) when podman or mmdebstrap is missing, when the Debian mirror cannot be
# reached, or when podman cannot start a container here; each says why.
set -euo pipefail
build=${NICD_BUILD_DIR:?}
source_dir=${NICD_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
skip() { echo "SKIP: $*"; exit 77; }
fail=0
failed() { echo "FAIL: $*"; fail=1; }
for tool in podman mmdebstrap; do
    command -v "$tool" >/dev/null || skip "$tool is not installed (scripts/install-deps.sh installs it)"
done
[ "$(id -u)" -eq 0 ] || skip "the image test runs rootful podman (mmdebstrap in root mode): run as root"

out=$(mktemp -d /tmp/nicd-image.XXXXXX)
containers=()
cleanup() {
    for c in "${containers[@]}"; do podman rm -f -t 0 "$c" >/dev/null 2>&1 || true; done
    rm -rf "$out"
}
trap cleanup EXIT
source "$source_dir/tests/integration/support/packages.sh"
pkgs=$(packages_dir "$build" "$out")
deb=$(ls "$pkgs"/nicd_*.deb)
# The image's key: the content of the files the .deb installs (not its dates), and the script.
key=$( (dpkg-deb --fsys-tarfile "$deb" | tar -xO; cat "$source_dir/scripts/build-image.sh" \
    "$source_dir/deploy/image/nicd-liveness") | sha256sum | cut -c1-16)
image=localhost/nicd-test:$key
if ! podman image exists "$image"; then
    if ! NICD_PACKAGE_DIR=$pkgs NICD_IMAGE_DIR=$out/image "$source_dir/scripts/build-image.sh" \
        "$build" "$image" >"$out/build.log" 2>&1; then
        cat "$out/build.log"
        grep -qE 'Failed to fetch|Could not resolve|Temporary failure resolving|Unable to connect' \
            "$out/image/mmdebstrap.log" 2>/dev/null &&
            skip "the Debian mirror cannot be reached, so the image cannot be built here"
        echo "FAIL: scripts/build-image.sh failed"
        exit 1
    fi
    # The images of older .debs go: one test image in the store.
    podman images --format '{{.Repository}}:{{.Tag}}' | grep '^localhost/nicd-test:' |
        grep -vx "$image" | xargs -r podman rmi >/dev/null 2>&1 || true
fi

# How this machine lets podman start a container: as it is, with the limits set explicitly (a
# sandbox may refuse raising RLIMIT_NOFILE/NPROC to podman's defaults), or with runc (crun
# refuses a cgroup v1/v2 hybrid host).
run_args=()
for try in "" "--ulimit nofile=4096:4096 --ulimit nproc=4096:4096" \
    "--ulimit nofile=4096:4096 --ulimit nproc=4096:4096 --runtime runc"; do
    read -r -a args <<<"$try"
    if podman run --rm "${args[@]}" --entrypoint /bin/true "$image" >"$out/probe.log" 2>&1; then
        run_args=("${args[@]}" --ok)
        break
    fi
done
[ ${#run_args[@]} -gt 0 ] || skip "podman cannot start a container here: $(tail -n 1 "$out/probe.log")"
unset 'run_args[-1]'

# The node, its configuration (the ConfigMap's place) and the pod's bus directory.
sim=$build/tools/nicd-sim/nicd-sim
node=$out/node
"$sim" create "$node" >/dev/null
mkdir -p "$out/config" "$out/bus"
chmod 0777 "$out/bus" # as an emptyDir: the bus runs as nobody
printf '[daemon]\nPollIntervalMs=1000\n[provision]\nMode=off\n' >"$out/config/nicd.conf"
textfile=$node/var/lib/prometheus/node-exporter/nicd.prom
bus=unix:path=/run/nicd-bus/bus
name=nicd-image-test-$$
containers+=("$name-bus" "$name")
podman run -d --name "$name-bus" "${run_args[@]}" --network none --cap-drop all --user 65534:65534 \
    -v "$out/bus:/run/nicd-bus" --entrypoint dbus-daemon "$image" \
    --nofork --nopidfile --config-file=/usr/share/nicd/kubernetes/bus.conf >/dev/null
for _ in $(seq 100); do [ -S "$out/bus/bus" ] && break; sleep 0.1; done
[ -S "$out/bus/bus" ] || { podman logs "$name-bus"; echo "FAIL: the bus container made no socket"; exit 1; }
# The image's entrypoint, with --root added (the DaemonSet mounts the host's paths instead), with
# the DaemonSet's options: a read-only root file system, the host's /sys read-only but for
# /sys/devices, /run/nicd in memory.
podman run -d --name "$name" "${run_args[@]}" --network none --cap-drop all --cap-add NET_ADMIN \
    --read-only --tmpfs /run/nicd -v /sys:/sys:ro -v /sys/devices:/sys/devices \
    -v "$node:/node" -v "$out/config:/etc/nicd/kubernetes:ro" -v "$out/bus:/run/nicd-bus" \
    "$image" --root /node >/dev/null
in_nicd() { podman exec "$name" "$@"; }

for _ in $(seq 60); do grep -qs '^nicd_up 1' "$textfile" && break; sleep 1; done
if ! grep -qs '^nicd_up 1' "$textfile"; then
    podman logs "$name" 2>&1 | tail -n 20
    echo "FAIL: nicd in the container wrote no textfile ($textfile) within 60 s"
    exit 1
fi
grep -q '^nicd_port_state{.*device="mlx5_1"' "$textfile" || failed "the textfile has no port of mlx5_1"

status=$(in_nicd nicctl --bus "$bus" status 2>&1) && rc=0 || rc=$?
[ "$rc" -eq 0 ] || failed "nicctl status in the container: exit $rc (0: healthy): $status"
grep -q '^mlx5_1 ' <<<"$status" || failed "nicctl status in the container shows no mlx5_1: $status"

# The liveness probe on nicd's heartbeat (its run directory, under --root here): fresh while nicd
# cycles; stale once its loop stops (SIGSTOP from the host).
probe=/usr/share/nicd/kubernetes/nicd-liveness
in_file=/node/run/nicd/heartbeat
in_nicd "$probe" "$in_file" 5 >"$out/probe.log" 2>&1 || failed "liveness fails on a running nicd: $(cat "$out/probe.log")"
pid=$(podman inspect --format '{{.State.Pid}}' "$name")
kill -STOP "$pid"
sleep 8
in_nicd "$probe" "$in_file" 5 >"$out/probe.log" 2>&1 && failed "liveness passes on a stopped nicd: $(cat "$out/probe.log")"
kill -CONT "$pid"

# The NPD sidecar's checks, as nobody like the sidecar: a compute port's link down raises
# NicdCheckCable, not NicdReplaceNic.
npd() { podman exec --user 65534:65534 "$name" /usr/share/nicd/npd/nicd-npd-check "$@" --bus "$bus"; }
npd --action check_cable >/dev/null || failed "check_cable is a problem on a healthy node"
"$sim" inject "$node" link-down mlx5_1 --port 1 >/dev/null
for _ in $(seq 30); do npd --action check_cable >/dev/null || break; sleep 1; done
msg=$(npd --action check_cable) && rc=0 || rc=$?
[ "$rc" -eq 1 ] || failed "check_cable: exit $rc after mlx5_1/1 went down (1: problem): $msg"
grep -q '^nicd: fatal: mlx5_1/1 check_cable: ' <<<"$msg" || failed "check_cable's message: $msg"
msg=$(npd --action replace_nic) && rc=0 || rc=$?
[ "$rc" -eq 0 ] || failed "replace_nic: exit $rc for a cable problem (0: none): $msg"
msg=$(npd) && rc=0 || rc=$?
[ "$rc" -eq 1 ] && grep -q '^nicd: fatal: mlx5_1/1 check_cable: ' <<<"$msg" ||
    failed "NicdNicProblem's check (no --action): exit $rc (1: problem): $msg"

[ "$fail" -eq 0 ] && echo "PASS: image $image ($(podman image inspect --format '{{.Size}}' "$image" | numfmt --to=iec))"
exit "$fail"
