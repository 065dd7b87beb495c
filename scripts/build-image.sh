#!/usr/bin/env bash
# make image: nicd as an OCI image, built from the .deb files make package makes, with nothing
# pulled from a container registry (no FROM): mmdebstrap makes a minimal Debian 12 root (the
# Essential packages less usrmerge and perl, the nicd .deb and the libraries it depends on,
# dbus-daemon for the pod's private bus, mawk for the probe and NPD checks; no documentation, man
# pages or locales) from a Debian mirror, and `podman import` turns the tarball into an image. So
# it builds on a machine that reaches only a Debian mirror. What is in it, its size, and how the
# DaemonSet runs it: docs/fleet.md "Kubernetes".
#   scripts/build-image.sh BUILD [TAG]   (default TAG: localhost/nicd:<package version>)
# Environment: NICD_IMAGE_MIRROR (default http://deb.debian.org/debian), NICD_IMAGE_SUITE
# (bookworm), NICD_PACKAGE_DIR (use the .deb there instead of running cpack), NICD_IMAGE_DIR (the
# work directory, default BUILD/image: emptied first).
# The entrypoint: nicd in the foreground, its configuration from the ConfigMap mounted on
# /etc/nicd/kubernetes (the image carries the package's defaults there), on the pod's private bus
# unix:path=/run/nicd-bus/bus, which the image's /usr/share/nicd/kubernetes/bus.conf describes
# (the system bus's default policy plus nicd's own, as on a host). Arguments after the image
# name are added to nicd's (e.g. --root DIR, --log-level debug).
set -euo pipefail
build=$(realpath "${1:?usage: build-image.sh BUILD [TAG]}")
here=$(cd "$(dirname "$0")" && pwd)
source "$here/lib/private_bus.sh"
for tool in mmdebstrap podman dpkg-deb dpkg-scanpackages cpack; do
    command -v "$tool" >/dev/null ||
        { echo "build-image: $tool is not installed (scripts/install-deps.sh installs it)" >&2; exit 1; }
done
mirror=${NICD_IMAGE_MIRROR:-http://deb.debian.org/debian}
suite=${NICD_IMAGE_SUITE:-bookworm}
bus_dir=/run/nicd-bus
config_dir=/etc/nicd/kubernetes

out=${NICD_IMAGE_DIR:-$build/image}
rm -rf "$out" && mkdir -p "$out"
if [ -n "${NICD_PACKAGE_DIR:-}" ] && ls "$NICD_PACKAGE_DIR"/nicd_*.deb >/dev/null 2>&1; then
    debs=$NICD_PACKAGE_DIR
else
    debs=$out/debs
    (cd "$build" && cpack -G DEB -B "$debs" >"$out/cpack.log" 2>&1) ||
        { echo "build-image: cpack -G DEB failed ($out/cpack.log):" >&2; cat "$out/cpack.log" >&2; exit 1; }
fi
deb=$(ls "$debs"/nicd_*.deb)
version=$(dpkg-deb -f "$deb" Version)
tag=${2:-localhost/nicd:$version}
private_bus_conf "unix:path=$bus_dir/bus" /usr/share/dbus-1/system.d/io.nicd.Nicd1.conf >"$out/bus.conf"
# The .deb as a flat repository beside the mirror, copy:// so apt copies it into the root (a local
# .deb path or a file:// one stays outside the chroot that dpkg runs in: dpkg cannot see it).
mkdir -p "$out/repo" && cp "$deb" "$out/repo/"
(cd "$out/repo" && dpkg-scanpackages --multiversion . /dev/null >Packages 2>/dev/null)

# The Essential init-system-helpers takes usrmerge (and with it perl, half the root) for its
# "usrmerge | usr-is-merged": usr-is-merged says the same of a root mmdebstrap made merged.
perl_only="usrmerge libfile-find-rule-perl libnumber-compare-perl libtext-glob-perl perl libperl5.36 perl-modules-5.36"
echo "build-image: mmdebstrap $suite from $mirror with $(basename "$deb") (a few minutes)"
mmdebstrap --variant=essential --include="nicd=$version,dbus-daemon,mawk,usr-is-merged" \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/locale/*' \
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
    --dpkgopt='path-exclude=/usr/share/info/*' \
    --customize-hook="mkdir -p \"\$1$config_dir\" \"\$1$bus_dir\" \"\$1/usr/share/nicd/kubernetes\"" \
    --customize-hook="cp \"\$1/etc/nicd/nicd.conf\" \"\$1$config_dir/nicd.conf\"" \
    --customize-hook="cp '$out/bus.conf' \"\$1/usr/share/nicd/kubernetes/bus.conf\"" \
    --customize-hook="cp '$here/../deploy/image/nicd-liveness' \"\$1/usr/share/nicd/kubernetes/\"" \
    --customize-hook="chroot \"\$1\" dpkg --purge $perl_only >/dev/null" \
    --customize-hook='rm -f "$1/var/log"/*.log' \
    "$suite" "$out/rootfs.tar" "deb $mirror $suite main" "deb [trusted=yes] copy://$out/repo ./" \
    >"$out/mmdebstrap.log" 2>&1 ||
    { echo "build-image: mmdebstrap failed ($out/mmdebstrap.log):" >&2; tail -n 20 "$out/mmdebstrap.log" >&2; exit 1; }

podman import --quiet \
    --change "ENTRYPOINT [\"/usr/sbin/nicd\", \"--config=$config_dir/nicd.conf\", \"--bus=unix:path=$bus_dir/bus\"]" \
    --change "LABEL org.opencontainers.image.title=nicd org.opencontainers.image.version=$version" \
    --change "LABEL org.opencontainers.image.description=\"RoCE QoS provisioning and RDMA NIC health daemon\"" \
    "$out/rootfs.tar" "$tag" >/dev/null
rm -f "$out/rootfs.tar"
echo "$tag" >"$out/tag"
echo "build-image: $tag ($(podman image inspect --format '{{.Size}}' "$tag" | numfmt --to=iec) uncompressed)"
