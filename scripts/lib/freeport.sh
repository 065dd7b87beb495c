# shellcheck shell=bash
# freeport: a TCP port from 20000-39999 that nothing listens on (ss -ltn), for a server of a script
# or a test on 127.0.0.1.
freeport() {
    local p=$((20000 + RANDOM % 20000))
    while ss -ltn | grep -q ":$p "; do p=$((20000 + RANDOM % 20000)); done
    echo "$p"
}
