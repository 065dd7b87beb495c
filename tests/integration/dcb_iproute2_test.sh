#!/usr/bin/env bash
# nicd's rtnetlink DCB requests are byte for byte the ones iproute2's `dcb` sends (nlmsg_seq and
# nlmsg_pid aside), captured with strace on a veth pair in a private network namespace:
#   - `dcb app add|del dev X dscp-prio 26:3`  vs  dcb_probe app-add|app-del X 26:3 (SET / DEL)
#   - `dcb pfc set dev X prio-pfc 3:on`       vs  dcb_probe pfc-set X 3 (a veth has no DCB, so
#     both stop after the GET: the GETs are compared)
# and on the veth nicd's client reports the clean per-port error. Needs root, ip, dcb, strace
# (scripts/install-deps.sh installs them); a missing tool fails the test.
set -euo pipefail
build=${NICD_BUILD_DIR:?}
probe="$build/tests/tools/dcb_probe"
fail=0

for tool in ip dcb strace; do
    command -v "$tool" >/dev/null || { echo "FAIL: '$tool' is not installed"; exit 1; }
done
[ -x "$probe" ] || { echo "FAIL: $probe is not built"; exit 1; }
[ "$(id -u)" = 0 ] || { echo "FAIL: needs root (network namespaces)"; exit 1; }

ns="nicd-dcb-$$-$RANDOM"
dir=$(mktemp -d /tmp/nicd-dcb.XXXXXX)
cleanup() {
    ip netns del "$ns" 2>/dev/null || true
    rm -rf "$dir"
}
trap cleanup EXIT
ip netns add "$ns"
ip -n "$ns" link add veth0 type veth peer name veth1
ip -n "$ns" link set veth0 up
ip -n "$ns" link set veth1 up

# The DCB messages (RTM_GETDCB 0x4e, RTM_SETDCB 0x4f) a command sends, one hex line each, with
# nlmsg_seq and nlmsg_pid masked. strace's -e write dumps every sendto buffer as hex, since
# -xx alone shows netlink messages decoded: " | 00000  30 00 00 00 ...  ascii |".
capture() {
    local out=$1
    shift
    ip netns exec "$ns" strace -f -qq -e trace=sendto -e write=all -xx -s 65535 -o "$out.raw" \
        "$@" >"$out.stdout" 2>"$out.stderr" || true
    awk '
        /sendto\(/ { if (hex != "") print hex; hex = ""; next }
        /^ \| [0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]  / { h = substr($0, 11, 49); gsub(/ /, "", h); hex = hex h }
        END { if (hex != "") print hex }
    ' "$out.raw" |
        awk 'substr($0, 9, 4) == "4e00" || substr($0, 9, 4) == "4f00" {
                 print substr($0, 1, 16) "xxxxxxxxxxxxxxxx" substr($0, 33) }' >"$out"
}

compare() {
    local what=$1 theirs=$2 ours=$3
    if [ ! -s "$theirs" ]; then
        echo "FAIL: $what: dcb sent no DCB message"; cat "$theirs.raw" "$theirs.stderr"; fail=1; return
    fi
    if ! diff -u "$theirs" "$ours" >"$dir/diff"; then
        echo "FAIL: $what: nicd's bytes differ from dcb's (- dcb, + nicd):"; cat "$dir/diff"; fail=1
        return
    fi
    echo "ok: $what ($(wc -l <"$ours") message(s))"
}

capture "$dir/dcb-add" dcb app add dev veth0 dscp-prio 26:3
capture "$dir/nicd-add" "$probe" app-add veth0 26:3
compare "IEEE_SET app dscp 26 -> prio 3" "$dir/dcb-add" "$dir/nicd-add"

capture "$dir/dcb-add2" dcb app add dev veth0 dscp-prio 26:3 46:5
capture "$dir/nicd-add2" "$probe" app-add veth0 26:3 46:5
compare "IEEE_SET two app entries in one message" "$dir/dcb-add2" "$dir/nicd-add2"

capture "$dir/dcb-del" dcb app del dev veth0 dscp-prio 26:3
capture "$dir/nicd-del" "$probe" app-del veth0 26:3
compare "IEEE_DEL app dscp 26 -> prio 3" "$dir/dcb-del" "$dir/nicd-del"

capture "$dir/dcb-pfc" dcb pfc set dev veth0 prio-pfc 3:on
capture "$dir/nicd-pfc" "$probe" pfc-set veth0 3
compare "IEEE_GET before a PFC change" "$dir/dcb-pfc" "$dir/nicd-pfc"

# The message type and command are the ones expected, not just equal to each other.
grep -q '^300000004f000500xxxxxxxxxxxxxxxx00140000' "$dir/nicd-add" ||
    { echo "FAIL: nicd's app-add is not a 48-byte RTM_SETDCB IEEE_SET"; fail=1; }
grep -q '^300000004f000500xxxxxxxxxxxxxxxx001b0000' "$dir/nicd-del" ||
    { echo "FAIL: nicd's app-del is not a 48-byte RTM_SETDCB IEEE_DEL"; fail=1; }

# A veth has no dcbnl ops: every request ends in the same clean per-port error.
want="netdev veth0: DCB not supported by driver (EOPNOTSUPP)"
for args in "get veth0" "app-add veth0 26:3" "app-del veth0 26:3" "pfc-set veth0 3"; do
    # shellcheck disable=SC2086 # split the arguments
    got=$(ip netns exec "$ns" "$probe" $args) && rc=0 || rc=$?
    if [ "$rc" != 1 ] || [ "$got" != "$want" ]; then
        echo "FAIL: dcb_probe $args: exit $rc, '$got' (want 1, '$want')"; fail=1
    fi
done
got=$(ip netns exec "$ns" "$probe" get nosuchdev0) || true
[ "$got" = "netdev nosuchdev0: no such network interface (ENODEV)" ] ||
    { echo "FAIL: unknown netdev gives '$got'"; fail=1; }

exit $fail
