#!/usr/bin/env bash
# The netlink attribute reader nicd uses (plugin SDK NetlinkAttrs) against libnl's nla_parse with
# a policy, on the real decoders' inputs, and what each does with hostile bytes. Method and the
# choice it made: docs/architecture.md, Conventions.
set -euo pipefail
build=$1
echo "== netlink attribute readers: NetlinkAttrs vs libnl nla_parse"
"$build/tests/bench/netlink_attrs_bench"
