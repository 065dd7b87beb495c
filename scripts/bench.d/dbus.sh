#!/usr/bin/env bash
# D-Bus call latency with 64 devices, on a private dbus-daemon.
set -euo pipefail
build=$1
echo "== D-Bus: GetManagedObjects, a property read and GetCounters, 64 devices"
"$build/tests/bench/dbus_bench" "$build/daemon/nicd" "$build/plugins" 200
