#!/usr/bin/env bash
# The switch side with real lldpd (issue 43; ctest label lldp): two "switches", each a network
# namespace with its own lldpd advertising a name, its port (swp1) and the IEEE 802.1Qaz PFC and
# Application Priority TLVs of the fabric's RoCE profile (PFC on 3, DSCP 26 on priority 3); a
# "host" namespace whose veth ends carry the simulated node's netdev names (ens1f0np0 of mlx5_0,
# ens2f0np0 of mlx5_1) and the host's lldpd, whose socket is the tree's run/lldpd.socket; nicd on
# the simulated node with a wiring map (ens1f0np0 -> leaf-01 swp1, ens2f0np0 -> leaf-02 swp1),
# reading lldpd through liblldpctl. The faults, each undone before the next:
#   - healthy: both neighbours in nicd_port_neighbor_info, nothing raised;
#   - the switch's PFC changed (leaf-01 now PFC on 3,4): qos.switch_mismatch on mlx5_0;
#   - two cables swapped (the host's two ports renamed into each other's place):
#     wiring.unexpected_neighbor on both;
#   - a port hearing two neighbours (a second lldpd on leaf-01's port): wiring.unexpected_neighbor;
#   - a switch port that stops sending LLDP (leaf-02's lldpd stopped): wiring.no_neighbor on
#     mlx5_1 after three TTLs;
#   - the host's lldpd stopped: said once in nicd's log, the neighbours leave the textfile.
# Needs root (namespaces; lldpd must start as root) and lldpd (scripts/install-deps.sh).
set -euo pipefail
build=${NICD_BUILD_DIR:?}

for tool in ip lldpd lldpcli; do
    command -v "$tool" >/dev/null || { echo "FAIL: '$tool' is not installed"; exit 1; }
done
[ "$(id -u)" = 0 ] || { echo "FAIL: needs root (network namespaces, lldpd)"; exit 1; }

tag="nl$$"
ns_host="$tag-h"
ns_sw1="$tag-s1"
ns_sw2="$tag-s2"
work=$(mktemp -d /tmp/nicd-lldp.XXXXXX)
chmod 755 "$work" # lldpcli gives up root: it must reach the sockets here
root="$work/node"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    wait 2>/dev/null || true
    for ns in "$ns_host" "$ns_sw1" "$ns_sw2"; do
        ip netns del "$ns" 2>/dev/null || true
    done
    rm -rf "$work"
}
trap cleanup EXIT
fail() {
    echo "FAIL: $*"
    echo "--- textfile"
    grep -E 'neighbor_info|wiring\.|switch_mismatch' "$prom" 2>/dev/null || true
    echo "--- nicd's log (last lines)"
    tail -20 "$work/nicd.log" || true
    exit 1
}

# One lldpd in the foreground of namespace $1 on socket $2 and interfaces $3; its pid is $!. With
# $4, the lldpcli commands it runs before it sends its first LLDPDU (lldpd -O: so that no frame
# goes out with another name or TTL, which the peer would keep for that TTL).
lldpd_in() {
    local config=(-L "")
    if [ $# -ge 4 ]; then
        printf '%s\n' "$4" >"$2.conf"
        config=(-L "$(command -v lldpcli)" -O "$2.conf")
    fi
    ip netns exec "$1" lldpd -d -u "$2" -I "$3" "${config[@]}" >"$2.log" 2>&1 &
    pids+=($!)
    for _ in $(seq 50); do
        [ -S "$2" ] && return 0
        sleep 0.1
    done
    fail "lldpd did not start in $1: $(cat "$2.log")"
}
cli() { # namespace socket command...
    local ns=$1 sock=$2
    shift 2
    ip netns exec "$ns" lldpcli -u "$sock" "$@" >/dev/null
}
# A switch named $1 whose chassis ID is $2: its port ID the port's name, an LLDPDU a second (TTL
# 4 s), the fabric's RoCE profile: PFC on 3 (willing off, 8 classes), DSCP 26 on priority 3.
switch_profile() {
    printf '%s\n' "configure system hostname $1" "configure system chassisid $2" \
        "configure lldp portidsubtype ifname" "configure lldp tx-interval 1" \
        "configure lldp custom-tlv oui 00,80,c2 subtype 11 oui-info 08,08" \
        "configure lldp custom-tlv add oui 00,80,c2 subtype 12 oui-info 00,65,00,1a"
}

for ns in "$ns_host" "$ns_sw1" "$ns_sw2"; do
    ip netns add "$ns"
    ip -n "$ns" link set lo up
done
ip -n "$ns_host" link add ens1f0np0 type veth peer name swp1 netns "$ns_sw1"
ip -n "$ns_host" link add ens2f0np0 type veth peer name swp1 netns "$ns_sw2"
for dev in ens1f0np0 ens2f0np0; do ip -n "$ns_host" link set "$dev" up; done
ip -n "$ns_sw1" link set swp1 up
ip -n "$ns_sw2" link set swp1 up

"$build/tools/nicd-sim/nicd-sim" create "$root" >/dev/null
# The simulator's twin of lldpd would stand in for it: this node has the real one.
rm -f "$root/run/nicd-sim/lldp/neighbors.json"
sock="$root/run/lldpd.socket"
lldpd_in "$ns_host" "$sock" "ens1f0np0,ens2f0np0"
lldpd_in "$ns_sw1" "$work/sw1.sock" swp1 "$(switch_profile leaf-01 02:00:00:00:00:01)"
lldpd_in "$ns_sw2" "$work/sw2.sock" swp1 "$(switch_profile leaf-02 02:00:00:00:00:02)"
sw2_pid=$!

mkdir -p "$root/etc/nicd"
printf '# port       switch   switch port\nens1f0np0  leaf-01  swp1\nens2f0np0  leaf-02  swp1\n' \
    >"$root/etc/nicd/wiring.map"
printf '[daemon]\nPollIntervalMs=500\n[signals]\nIntervalSec=1\n[health]\nWiringMap=/etc/nicd/wiring.map\n' \
    >"$work/nicd.conf"
"$build/daemon/nicd" --root "$root" --config "$work/nicd.conf" --plugin-directory "$build/plugins" \
    --no-dbus --log-level info >"$work/nicd.log" 2>&1 &
pids+=($!)
prom="$root/var/lib/prometheus/node-exporter/nicd.prom"

# Waits up to $1 seconds for the textfile to hold a line matching every regex that follows.
wait_for() {
    local seconds=$1
    shift
    for _ in $(seq $((seconds * 5))); do
        if [ -f "$prom" ] && python3 - "$prom" "$@" <<'PY'; then return 0; fi
import re, sys
lines = open(sys.argv[1]).read().splitlines()
sys.exit(0 if any(all(re.search(p, l) for p in sys.argv[2:]) for l in lines) else 1)
PY
        sleep 0.2
    done
    return 1
}
# Waits up to $1 seconds for no line to match every regex that follows.
wait_gone() {
    local seconds=$1
    shift
    for _ in $(seq $((seconds * 5))); do
        if [ -f "$prom" ] && ! python3 - "$prom" "$@" <<'PY'; then return 0; fi
import re, sys
lines = open(sys.argv[1]).read().splitlines()
sys.exit(0 if any(all(re.search(p, l) for p in sys.argv[2:]) for l in lines) else 1)
PY
        sleep 0.2
    done
    return 1
}
condition() { # code device
    printf 'nicd_condition_active{[^}]*device="%s"[^}]*code="%s"|nicd_condition_active{[^}]*code="%s"[^}]*device="%s"' \
        "$2" "$1" "$1" "$2"
}

# Healthy: each port hears the switch port the map names; the switches agree with the host.
wait_for 30 '^nicd_port_neighbor_info\{' 'device="mlx5_0"' 'system_name="leaf-01"' 'port_id="swp1"' ||
    fail "mlx5_0's neighbour leaf-01 swp1 is not in the textfile"
wait_for 10 '^nicd_port_neighbor_info\{' 'device="mlx5_1"' 'netdev="ens2f0np0"' 'system_name="leaf-02"' ||
    fail "mlx5_1's neighbour leaf-02 swp1 is not in the textfile"
sleep 2
if grep -E 'nicd_condition_active\{[^}]*code="(wiring\.|qos\.switch_mismatch)' "$prom"; then
    fail "a healthy, correctly wired node has a wiring or switch condition"
fi
echo "ok: healthy: both neighbours shown, nothing raised"

# The switch's PFC changed on leaf-01: PFC on 3 and 4, the host on 3.
cli "$ns_sw1" "$work/sw1.sock" configure lldp custom-tlv replace oui 00,80,c2 subtype 11 oui-info 08,18
wait_for 20 "$(condition qos.switch_mismatch mlx5_0)" 'action="check_switch_port"' ||
    fail "leaf-01's PFC on 3,4 raised no qos.switch_mismatch on mlx5_0"
grep -qE "$(condition qos.switch_mismatch mlx5_1)" "$prom" &&
    fail "leaf-02 agrees with the host, yet mlx5_1 has qos.switch_mismatch"
cli "$ns_sw1" "$work/sw1.sock" configure lldp custom-tlv replace oui 00,80,c2 subtype 11 oui-info 08,08
wait_gone 20 "$(condition qos.switch_mismatch mlx5_0)" ||
    fail "qos.switch_mismatch did not recover when leaf-01 went back to PFC on 3"
echo "ok: the switch's PFC changed: qos.switch_mismatch, and it recovers"

# Two cables swapped at the patch panel: the host's ports renamed into each other's place.
swap_host_ports() {
    ip -n "$ns_host" link set ens1f0np0 name tmp0
    ip -n "$ns_host" link set ens2f0np0 name ens1f0np0
    ip -n "$ns_host" link set tmp0 name ens2f0np0
}
swap_host_ports
wait_for 30 "$(condition wiring.unexpected_neighbor mlx5_0)" 'action="check_cable"' ||
    fail "swapped cables raised no wiring.unexpected_neighbor on mlx5_0"
wait_for 10 "$(condition wiring.unexpected_neighbor mlx5_1)" ||
    fail "swapped cables raised no wiring.unexpected_neighbor on mlx5_1"
swap_host_ports
wait_gone 30 'code="wiring\.unexpected_neighbor"' ||
    fail "wiring.unexpected_neighbor did not recover when the cables were swapped back"
echo "ok: two cables swapped: wiring.unexpected_neighbor on both ports, and it recovers"

# A port hearing two neighbours: a second LLDP agent on leaf-01's port.
lldpd_in "$ns_sw1" "$work/sw1b.sock" swp1 "$(switch_profile leaf-09 02:00:00:00:00:09)"
extra_pid=$!
wait_for 20 "$(condition wiring.unexpected_neighbor mlx5_0)" ||
    fail "a port hearing two neighbours raised no wiring.unexpected_neighbor"
wait_for 5 '^nicd_port_neighbor_info\{' 'device="mlx5_0"' 'system_name="leaf-09"' ||
    fail "the second neighbour is not in the textfile"
kill "$extra_pid"
wait_gone 30 "$(condition wiring.unexpected_neighbor mlx5_0)" ||
    fail "wiring.unexpected_neighbor did not recover when the second agent went (its TTL past)"
echo "ok: a port hearing two neighbours: wiring.unexpected_neighbor, and it recovers"

# leaf-02's port stops sending LLDP: after three TTLs (4 s each) mlx5_1 has no neighbour.
kill "$sw2_pid"
wait_for 40 "$(condition wiring.no_neighbor mlx5_1)" 'action="check_cable"' ||
    fail "a quiet switch port raised no wiring.no_neighbor"
grep -qE "$(condition wiring.no_neighbor mlx5_0)" "$prom" &&
    fail "mlx5_0 hears leaf-01, yet has wiring.no_neighbor"
echo "ok: a switch port that sends no LLDP: wiring.no_neighbor after three TTLs"

# The host's lldpd stops: said once; the neighbours leave the textfile; what was raised holds.
kill "${pids[0]}"
wait_gone 20 '^nicd_port_neighbor_info\{' ||
    fail "the neighbours stayed in the textfile after lldpd stopped"
sleep 3
said=$(grep -c 'lldp: no lldpd' "$work/nicd.log" || true)
[ "$said" = 1 ] || fail "nicd said 'no lldpd' $said times, not once"
grep -qE "$(condition wiring.no_neighbor mlx5_1)" "$prom" ||
    fail "without lldpd nothing is known: wiring.no_neighbor should hold, not recover"
echo "ok: the host's lldpd stopped: said once, the neighbours gone, conditions held"
echo "PASS"
