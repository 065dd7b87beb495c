#!/usr/bin/env bash
# `nicd-sim capture` of a node whose lldpd hears a switch: in a network namespace of its own, a
# veth pair, the node's lldpd on one end (its socket in the captured tree's run/lldpd.socket, where
# nicd asks it under --root) and a "switch" (a second lldpd named leaf-42) on the other. The
# capture writes what lldpd hears through nicd's own client as lldpcli's JSON
# (run/nicd-sim/lldp/neighbors.json): with --keep-identifiers the switch as lldpd knows it, by
# default its name, chassis MAC and addresses scrubbed; and with no lldpd there, no twin, noted in
# the manifest. Needs root, unshare and lldpd (liblldpctl); skipped (77) without them.
set -euo pipefail
build=${NICD_BUILD_DIR:?}
sim="$build/tools/nicd-sim/nicd-sim"
[ -x "$sim" ] || { echo "FAIL: $sim is not built"; exit 1; }
for tool in unshare lldpd lldpcli ip; do
    command -v "$tool" >/dev/null || { echo "SKIP: $tool is not installed"; exit 77; }
done
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (a network namespace, lldpd)"; exit 77; }
unshare -n true 2>/dev/null || { echo "SKIP: no network namespace can be made here"; exit 77; }

dir=$(mktemp -d /tmp/nicd-lldpd.XXXXXX)
trap 'rm -rf "$dir"' EXIT
chmod 755 "$dir" # lldpcli, and lldpd's check for another lldpd, connect only through searchable directories
fail=0
failure() { echo "FAIL: $*"; fail=1; }

mkdir -p "$dir/node/run" "$dir/node/sys" "$dir/switch"

# The namespace's part: both lldpds, the captures while they run, then both stopped.
cat >"$dir/inside.sh" <<'INSIDE'
set -euo pipefail
dir=$1 sim=$2
ip link add vA type veth peer name vB
ip link set vA up
ip link set vB up
lldpd -d -u "$dir/node/run/lldpd.socket" -I vA >"$dir/node-lldpd.log" 2>&1 &
node=$!
lldpd -d -u "$dir/switch/lldpd.socket" -I vB >"$dir/switch-lldpd.log" 2>&1 &
switch=$!
trap 'kill $node $switch 2>/dev/null; wait 2>/dev/null || true' EXIT
for _ in $(seq 50); do
    [ -S "$dir/node/run/lldpd.socket" ] && [ -S "$dir/switch/lldpd.socket" ] && break
    sleep 0.1
done
lldpcli -u "$dir/switch/lldpd.socket" configure system hostname leaf-42 >/dev/null
lldpcli -u "$dir/switch/lldpd.socket" configure lldp tx-interval 1 >/dev/null
heard=0
for _ in $(seq 100); do
    if lldpcli -u "$dir/node/run/lldpd.socket" show neighbors | grep -q leaf-42; then
        heard=1
        break
    fi
    sleep 0.1
done
[ $heard = 1 ] || { echo "the node's lldpd never heard leaf-42"; exit 1; }
"$sim" capture "$dir/kept" --root "$dir/node" --keep-identifiers >"$dir/kept.out" 2>&1
"$sim" capture "$dir/scrubbed" --root "$dir/node" >"$dir/scrubbed.out" 2>&1
INSIDE
if ! unshare -n bash "$dir/inside.sh" "$dir" "$sim" >"$dir/inside.out" 2>&1; then
    cat "$dir/inside.out" "$dir"/*.out 2>/dev/null
    tail -n 5 "$dir"/*.log
    echo "FAIL: the namespace's lldpds and captures"
    exit 1
fi

twin=run/nicd-sim/lldp/neighbors.json
manifest=run/nicd-sim/capture/manifest.json
kept="$dir/kept/$twin"
scrubbed="$dir/scrubbed/$twin"
[ -f "$kept" ] || failure "no twin in the capture with --keep-identifiers"
[ -f "$scrubbed" ] || failure "no twin in the scrubbed capture"
if [ -f "$kept" ]; then
    grep -q '"name": "vA"' "$kept" || failure "the kept twin names no vA: $(cat "$kept")"
    grep -q '"value": "leaf-42"' "$kept" || failure "the kept twin has no leaf-42: $(cat "$kept")"
fi
if [ -f "$scrubbed" ]; then
    grep -q '"name": "vA"' "$scrubbed" || failure "the scrubbed twin names no vA"
    grep -q 'leaf-42' "$scrubbed" ||
        failure "the scrubbed twin lost the switch's name (the wiring map's globs name it)"
    switch_mac=$(sed -n '/"type": "mac"/{n;s/.*"value": "\(.*\)".*/\1/p;q}' "$kept")
    [ -n "$switch_mac" ] || failure "no chassis MAC in the kept twin"
    [ -z "$switch_mac" ] || ! grep -qi "$switch_mac" "$scrubbed" ||
        failure "the scrubbed twin keeps the chassis MAC $switch_mac"
fi
for cap in kept scrubbed; do
    ! grep -q '"lldp neighbours"' "$dir/$cap/$manifest" ||
        failure "$cap: the manifest says lldpd was not read: $(cat "$dir/$cap/$manifest")"
done

# nicd replays the kept capture's twin as lldpd (it says nothing of lldpd missing), and finds no
# lldpd in the one without.
nicd="$build/daemon/nicd"
said=$("$nicd" --once --root "$dir/kept" 2>&1 || true)
! grep -q "no lldpd" <<<"$said" || failure "nicd on the capture finds no lldpd: $said"

# No lldpd: no twin, and the manifest says why.
"$sim" capture "$dir/none" --root "$dir/node" >"$dir/none.out" 2>&1 || failure "capture: $(cat "$dir/none.out")"
[ ! -e "$dir/none/$twin" ] || failure "a twin without lldpd"
grep -q '"lldp neighbours"' "$dir/none/$manifest" || failure "the manifest does not say lldpd was not read"
said=$("$nicd" --once --root "$dir/none" 2>&1 || true)
grep -q "no lldpd" <<<"$said" || failure "nicd on the capture without lldpd does not say so: $said"

[ $fail = 0 ] && echo "ok: the capture records what lldpd hears"
exit $fail
