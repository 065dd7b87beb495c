#!/bin/bash
# Runs a command on a real Linux kernel: Debian's packaged kernel (linux-image-amd64) booted under
# qemu, with the host's root shared read-only over virtio-9p and a tmpfs overlay on top where the
# guest writes (/tmp too, through the overlay: a build tree under /tmp stays visible; /run is the
# guest's own). The command runs as root in that root, in the directory this script was started
# from; its output comes back on stdout, the guest's kernel log in the out directory (kmsg), and
# this script exits with the command's status. With --out DIR the console, output, kernel log and
# status stay in DIR afterwards.
#
#   tests/kernel/vm.sh [--memory MB] [--timeout SEC] [--out DIR] -- COMMAND [ARG...]
#
# Exit 77 (ctest's skip) only where qemu cannot start a guest at all: no qemu-system-x86_64, no
# kernel image with its modules, no busybox-static (scripts/install-deps.sh installs all three).
# KVM when /dev/kvm answers, else TCG (software emulation): the choice is made at run time.
set -euo pipefail

memory=1024
timeout=240
out=""
while (($#)); do
    case "$1" in
    --memory) memory="$2"; shift 2 ;;
    --timeout) timeout="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --) shift; break ;;
    *) echo "vm.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
(($#)) || { echo "vm.sh: no command (vm.sh [options] -- COMMAND...)" >&2; exit 2; }

skip() { echo "vm.sh: SKIP: $*" >&2; exit 77; }
qemu=$(command -v qemu-system-x86_64 || true)
[[ -n "$qemu" ]] || skip "no qemu-system-x86_64 (Debian package qemu-system-x86)"
busybox=/bin/busybox
[[ -x "$busybox" ]] && file -L "$busybox" 2>/dev/null | grep -q "statically linked" ||
    skip "no static /bin/busybox (Debian package busybox-static)"
# The newest packaged kernel whose modules are installed.
kernel=""
for k in $(ls -1 /boot/vmlinuz-* 2>/dev/null | sort -V -r); do
    release=${k#/boot/vmlinuz-}
    if [[ -r "$k" && -f /lib/modules/$release/modules.dep ]]; then
        kernel=$k
        break
    fi
done
[[ -n "$kernel" ]] || skip "no /boot/vmlinuz-* with its /lib/modules (Debian package linux-image-amd64)"

work=$(mktemp -d /tmp/nicd-vm.XXXXXX)
trap 'rm -rf "$work"' EXIT
if [[ -z "$out" ]]; then
    out=$work/out
fi
mkdir -p "$out"
rm -f "$out/status" "$out/kmsg" "$out/output"
export VM_OUT=$out

# The initramfs: busybox and the modules that mount the host's root (the rest load from it).
initrd=$work/initrd
mkdir -p "$initrd"/{bin,dev,proc,sys,host,rw,newroot,out,modules}
cp "$busybox" "$initrd/bin/busybox"
modules=()
for m in virtio_pci 9pnet_virtio 9p overlay; do
    while read -r _ path _; do
        [[ -n "$path" ]] || continue
        name=$(basename "$path")
        if [[ ! -f "$initrd/modules/$name" ]]; then
            cp "$path" "$initrd/modules/$name"
            modules+=("$name")
        fi
    done < <(modprobe -S "$release" --show-depends "$m" 2>/dev/null | grep '^insmod')
done
printf '%s\n' "${modules[@]}" >"$initrd/modules/order"
# The command, run from where this script was started.
{
    printf 'cd %q\n' "$PWD"
    printf 'export VM_OUT=/vmout PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin\n'
    printf 'export HOME=/root LANG=C.UTF-8\n'
    for var in NICD_BUILD_DIR NICD_SOURCE_DIR NICD_SHARED_DIR GTEST_FILTER; do
        [[ -n "${!var:-}" ]] && printf 'export %s=%q\n' "$var" "${!var}"
    done
    printf '%q ' "$@"
    printf '\n'
} >"$out/command"
cat >"$initrd/init" <<'EOF'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
for m in $(cat /modules/order); do insmod /modules/$m || echo "vm: insmod $m failed"; done
mount -t 9p -o trans=virtio,version=9p2000.L,ro,cache=loose,msize=262144 hostroot /host
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 vmout /out
echo >/out/booted
mount -t tmpfs -o size=75% tmpfs /rw
mkdir -p /rw/upper /rw/work
mount -t overlay overlay -o lowerdir=/host,upperdir=/rw/upper,workdir=/rw/work /newroot
for d in proc sys dev; do mount --move /$d /newroot/$d; done
mkdir -p /newroot/vmout /newroot/dev/pts /newroot/dev/shm
mount --bind /out /newroot/vmout
mount -t devpts devpts /newroot/dev/pts
mount -t tmpfs tmpfs /newroot/dev/shm
mount -t tmpfs tmpfs /newroot/run
mount -t configfs configfs /newroot/sys/kernel/config 2>/dev/null
hostname nicd-vm
chroot /newroot /bin/bash /vmout/command >/out/output 2>&1
echo $? >/out/status
dmesg >/out/kmsg
sync
poweroff -f
EOF
chmod +x "$initrd/init"
(cd "$initrd" && find . | "$busybox" cpio -o -H newc 2>/dev/null) >"$work/initrd.cpio"

# One boot of the guest with accelerator $1 (kvm or tcg); its status in qemu_status. With KVM, a
# guest that has not mounted its root in 20 s is stopped (a nested KVM can hang early in boot):
# the caller then boots it under TCG.
boot() {
    local accel=$1 cpu=max
    [[ $accel == kvm ]] && cpu=host
    rm -f "$out/booted" "$out/status"
    echo "vm.sh: $(basename "$kernel") under qemu ($accel), ${memory} MB" >&2
    timeout --kill-after=10 "$timeout" "$qemu" \
        -accel "$accel" -cpu "$cpu" -smp 2 -m "$memory" \
        -nographic -no-reboot -nodefaults -serial stdio \
        -kernel "$kernel" -initrd "$work/initrd.cpio" \
        -append "console=ttyS0 panic=-1 quiet loglevel=4 rdinit=/init" \
        -virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
        -virtfs "local,path=$out,mount_tag=vmout,security_model=none" \
        -nic none </dev/null >"$out/console" 2>&1 &
    local pid=$!
    if [[ $accel == kvm ]]; then
        for _ in $(seq 200); do
            [[ -f "$out/booted" ]] || ! kill -0 "$pid" 2>/dev/null && break
            sleep 0.1
        done
        if [[ ! -f "$out/booted" ]]; then
            kill "$pid" 2>/dev/null || true
            wait "$pid" 2>/dev/null || true
            echo "vm.sh: the KVM guest did not boot in 20 s" >&2
            qemu_status=125
            return
        fi
    fi
    set +e
    wait "$pid"
    qemu_status=$?
    set -e
}

qemu_status=0
if [[ -r /dev/kvm && -w /dev/kvm ]]; then
    boot kvm
    [[ -f "$out/booted" ]] || boot tcg
else
    boot tcg
fi
[[ -f "$out/output" ]] && cat "$out/output"
if [[ ! -f "$out/status" ]]; then
    echo "vm.sh: the guest did not finish (qemu exit $qemu_status); its console:" >&2
    tail -n 40 "$out/console" >&2
    exit 1
fi
status=$(cat "$out/status")
if [[ "$status" != 0 && -f "$out/kmsg" ]]; then
    echo "vm.sh: the command exited $status; the guest's kernel log ends:" >&2
    tail -n 30 "$out/kmsg" >&2
fi
exit "$status"
