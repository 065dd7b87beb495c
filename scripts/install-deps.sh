#!/usr/bin/env bash
# Installs the Debian 12 packages nicd needs to build, test, demo and package; with `demo`, only
# those make demo needs (build it without tests and run it), so a newcomer's first command does
# not wait for clang, Prometheus or the packaging tools.
# Idempotent, and quiet when nothing is missing.
set -euo pipefail

# make demo: the compiler and linker, the build's libraries, the private bus, busctl, the journal writer.
packages=(
    build-essential cmake pkg-config ninja-build lld
    libsdbus-c++-dev libsdbus-c++-bin libsystemd-dev
    libibverbs-dev rdma-core libnl-3-dev libnl-route-3-dev libnl-genl-3-dev
    libinih-dev libspdlog-dev libfmt-dev nlohmann-json3-dev libcli11-dev
    dbus-daemon systemd systemd-journal-remote
    # lldpd's client header (nicd opens liblldpctl at run time); Debian's package depends on lldpd
    # itself, which the tests' namespaces run too.
    liblldpctl-dev
)
# make check and the rest: the tests, the servers they start, packaging, format, fuzzing.
if [ "${1:-all}" != demo ]; then
    packages+=(
        libgtest-dev libgmock-dev
        prometheus-node-exporter prometheus prometheus-alertmanager
        iproute2 strace util-linux procps curl python3 python3-yaml
        rpm rpmlint lintian file dpkg-dev man-db init-system-helpers
        clang-format clang-tidy
        clang libclang-rt-14-dev
        # make image and its tests: the root, the image and its containers (runc where crun
        # refuses a cgroup v1/v2 hybrid host), the manifest's client-side checks.
        mmdebstrap podman runc
        # the Slurm health check's end-to-end test: munged, slurmctld, slurmd.
        munge slurm-wlm
        # the real-kernel tier (tests/kernel/vm.sh): Debian's kernel with rdma_rxe under qemu,
        # busybox for its initramfs.
        qemu-system-x86 linux-image-amd64 busybox-static
    )
    # kubectl from another repository (Kubernetes' own, a cloud SDK) serves as well.
    command -v kubectl >/dev/null || packages+=(kubernetes-client)
fi

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
    echo "install-deps: missing packages: ${missing[*]}" >&2
    echo "install-deps: run as root (or: sudo apt-get install ${missing[*]})" >&2
    exit 1
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
