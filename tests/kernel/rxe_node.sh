#!/bin/sh
# Inside the guest of vm.sh: makes the node the kernel tests run on, then runs COMMAND.
#   - a veth pair (veth0, veth1) up at MTU 9000, veth0 with 192.0.2.1/24 and 2001:db8::1/64;
#   - rxe0, a soft-RoCE device (rdma_rxe) on veth0;
#   - ib_uverbs and rdma_ucm (the verbs device node, rdma_cm's configfs);
#   - systemd-journald, so kernel lines carry their trusted fields (_KERNEL_DEVICE, ...).
set -eu
# crc32_generic before rdma_rxe (else "failed to add veth0"): rxe's ICRC uses the crc32 shash.
for m in crc32_generic veth rdma_rxe ib_uverbs rdma_ucm configfs; do
    modprobe "$m"
done
mountpoint -q /sys/kernel/config || mount -t configfs configfs /sys/kernel/config
mountpoint -q /sys/fs/cgroup || mount -t cgroup2 cgroup2 /sys/fs/cgroup # journald wants its cgroup
ip link set lo up
ip link add veth0 type veth peer name veth1
ip link set veth0 mtu 9000 up # a RoCE port: room for a 4096-byte RoCE MTU
ip link set veth1 mtu 9000 up
ip addr add 192.0.2.1/24 dev veth0
ip -6 addr add 2001:db8::1/64 dev veth0 nodad
rdma link add rxe0 type rxe netdev veth0
mkdir -p /run/systemd/journal /var/log/journal
/lib/systemd/systemd-journald &
for _ in $(seq 100); do
    [ -S /run/systemd/journal/socket ] && break
    sleep 0.1
done
[ -S /run/systemd/journal/socket ] || { echo "rxe_node.sh: systemd-journald did not start" >&2; exit 1; }
# The GIDs follow the addresses asynchronously (a workqueue): wait for the IPv4 one.
for _ in $(seq 100); do
    grep -q "ffff:c000:0201" /sys/class/infiniband/rxe0/ports/1/gids/* 2>/dev/null && break
    sleep 0.1
done
exec "$@"
