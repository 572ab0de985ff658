#!/usr/bin/env bash
# Builds the three guests that the KubeVirt tests boot, and their containerDisk images, from the
# sources in test/lab/kubevirt/guest and from Debian packages (no container registry is reachable):
#   - guest-bootsector: test/lab/kubevirt/guest/bootsector.asm, assembled by nasm into one 512-byte
#     boot sector that writes VIRTGATE-GUEST-OK to COM1 and halts; a raw 1 MiB disk, no
#     partition table. For emulation (TCG): it needs nothing but a BIOS and a serial port.
#   - guest-counter: test/lab/kubevirt/guest/counter.asm, the same kind of disk: a boot sector that
#     writes VIRTGATE-COUNTER-BOOT once, then VIRTGATE-COUNTER <n> every second (live migration).
#   - guest-linux: Debian's kernel (the package linux-image-amd64 points at) and an initramfs of
#     busybox-static whose /init (test/lab/kubevirt/guest/linux/init) writes VIRTGATE-LINUX-GUEST-OK,
#     uname -r and more to ttyS0 and halts; both on a small raw disk (MBR, one FAT partition,
#     SYSLINUX from syslinux.cfg beside the init), built in image files with sfdisk, mkfs.fat
#     --offset, syslinux --offset and mtools: no loop device, no mount. The .debs are fetched with
#     apt-get download and read with dpkg-deb: nothing is installed on this machine.
# Each containerDisk image is KubeVirt's format: FROM scratch, the raw disk at /disk/<name>.img,
# owned 107:107 (the qemu user of virt-launcher), read-only. The Linux image also carries the
# kernel and initramfs at /boot/vmlinuz and /boot/initrd.img, so the same image serves
# spec.domain.firmware.kernelBoot.container (kernelPath/initrdPath) as well.
#
# Everything is reproducible: fixed timestamps (SOURCE_DATE_EPOCH), volume IDs and disk
# identifiers; two builds of the same inputs give the same bytes. Disks and archives are named
# by a hash of all inputs (sources, this script's recipes, the Debian packages' versions and
# versions as this machine's apt lists give them, the build tools' versions), so an unchanged
# input is never rebuilt.
#
# apt's sources and options are this machine's, used to download only: nothing of them is
# written into a disk or an image.
#
#   VIRTGATE_CACHE   cache root (default: ~/.cache/virtgate)
#   --check          build nothing; exit 1 if a disk or an archive is missing
#
# Prints one line per guest on stdout: <role> <image reference> <archive path> <files dir>,
# where <files dir> holds the raw disk (bootsector.img, counter.img, linux.img) and, for the Linux guest,
# vmlinuz and initrd.img, for booting them with plain QEMU.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
src="$here/guest"
cache="${VIRTGATE_CACHE:-$HOME/.cache/virtgate}"
images="$cache/images"
guests="$cache/guests"
# File times inside the disks and images: 2024-01-01T00:00:00Z.
export SOURCE_DATE_EPOCH=1704067200

log() { printf '[guest-images] %s\n' "$*" >&2; }
hash() { sha256sum | cut -c1-16; }
storage=(--root "$images/storage" --runroot "${XDG_RUNTIME_DIR:-/run}/virtgate-buildah" --storage-driver overlay)
bah() { nice -n 5 buildah "${storage[@]}" "$@"; }
recipe() { sed -n "/^$1() {/,/^}/p" "${BASH_SOURCE[0]}"; }

# Tools the builds run, and the Debian package of each.
declare -A tool_pkg=(
  [nasm]=nasm [sfdisk]=fdisk [mkfs.fat]=dosfstools [mcopy]=mtools [syslinux]=syslinux
  [cpio]=cpio [buildah]=buildah
)
syslinux_mbr=/usr/lib/syslinux/mbr/mbr.bin   # syslinux-common
tool_versions() {
  dpkg-query -W -f '${Package}=${Version}\n' nasm fdisk dosfstools mtools syslinux syslinux-common cpio 2>/dev/null || true
}

# The Debian packages the Linux guest is made of, as "name=version" (a version is immutable in
# Debian's archive): the kernel package that linux-image-amd64 depends on today in this
# machine's suite (bookworm), and busybox-static. One apt-cache call: on this machine apt keeps
# no binary cache, and each call reads the lists anew (2-3 s).
read -r kernel_pkg busybox_pkg < <(apt-cache show --no-all-versions linux-image-amd64 busybox-static 2>/dev/null | awk '
  /^Package:/ { p = $2 }
  /^Version:/ { v[p] = $2 }
  /^Depends:/ && p == "linux-image-amd64" && match($0, /linux-image-[0-9][^ ,]* \(= [^)]*\)/) {
    d = substr($0, RSTART, RLENGTH); gsub(/[()=]/, "", d); split(d, a, " +"); k = a[1] "=" a[2]
  }
  END { if (k && v["busybox-static"]) print k, "busybox-static=" v["busybox-static"] }') || true
if [[ -z "${kernel_pkg:-}" || -z "${busybox_pkg:-}" ]]; then
  log "apt knows no linux-image-amd64 or busybox-static: run apt-get update first"
  exit 1
fi

sector_key() { (recipe build_sector; recipe build_container; cat "$src/$1.asm"; dpkg-query -W -f '${Version}\n' nasm 2>/dev/null) | hash; }
bootsector_key="$(sector_key bootsector)"
counter_key="$(sector_key counter)"
linux_key="$( (recipe build_linux; recipe build_initramfs; recipe build_container; cat "$src/linux/init" "$src/linux/syslinux.cfg"
  echo "$kernel_pkg"; echo "$busybox_pkg"; tool_versions) | hash)"

bootsector_ref="localhost/virtgate/guest-bootsector:$bootsector_key"
counter_ref="localhost/virtgate/guest-counter:$counter_key"
linux_ref="localhost/virtgate/guest-linux:$linux_key"
bootsector_dir="$guests/bootsector-$bootsector_key"
counter_dir="$guests/counter-$counter_key"
linux_dir="$guests/linux-$linux_key"
bootsector_archive="$images/guest-bootsector-$bootsector_key.tar"
counter_archive="$images/guest-counter-$counter_key.tar"
linux_archive="$images/guest-linux-$linux_key.tar"

report() {
  echo "guest-bootsector $bootsector_ref $bootsector_archive $bootsector_dir"
  echo "guest-counter $counter_ref $counter_archive $counter_dir"
  echo "guest-linux $linux_ref $linux_archive $linux_dir"
}

if [[ "${1:-}" == "--check" ]]; then
  for f in "$bootsector_dir/bootsector.img" "$bootsector_archive" "$counter_dir/counter.img" "$counter_archive" "$linux_dir/linux.img" "$linux_archive"; do
    [[ -f "$f" ]] || { log "missing $f; build with: bash test/lab/kubevirt/guest-images.sh"; exit 1; }
  done
  report
  exit 0
fi

# Build tools: installed from Debian when missing (as root), else a clear error.
missing=()
for t in "${!tool_pkg[@]}"; do command -v "$t" >/dev/null || missing+=("${tool_pkg[$t]}"); done
[[ -f "$syslinux_mbr" ]] || missing+=(syslinux-common)
if [[ ${#missing[@]} -gt 0 ]]; then
  if [[ $(id -u) -ne 0 ]]; then
    log "missing Debian packages: ${missing[*]} (apt-get install ${missing[*]})"
    exit 1
  fi
  log "installing ${missing[*]} from Debian"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null 2>&1 \
    || { apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; }
  # The tools' versions are part of the Linux guest's key: compute it again.
  exec bash "${BASH_SOURCE[0]}" "$@"
fi

mkdir -p "$images" "$guests"
started=$SECONDS
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Keeps only the newest disk directory and archive of each guest.
prune_old() {
  local role="$1" keep_dir="$2" keep_archive="$3"
  find "$guests" -mindepth 1 -maxdepth 1 -type d -name "$role-*" ! -path "$keep_dir" -exec rm -rf {} +
  find "$images" -maxdepth 1 -name "guest-$role-*.tar" ! -path "$keep_archive" -delete
}

# --- containerDisk image: FROM scratch, files owned by qemu (107:107), read-only ---------------
# Arguments: reference, archive, then pairs of <file> <path in the image>.
build_container() {
  local ref="$1" archive="$2" ctr
  shift 2
  ctr="$(bah from scratch)"
  while [[ $# -gt 0 ]]; do
    bah copy --chown 107:107 --chmod 0444 "$ctr" "$1" "$2" >/dev/null
    shift 2
  done
  bah config --label "io.virtgate.guest=$ref" "$ctr"
  bah commit --quiet --rm --identity-label=false --timestamp "$SOURCE_DATE_EPOCH" "$ctr" "$ref" >/dev/null
  bah push --quiet "$ref" "docker-archive:$archive.partial:$ref" >/dev/null
  mv "$archive.partial" "$archive"
}

# --- boot sector guests (bootsector, counter): one 512-byte sector on a raw 1 MiB disk ----------
build_sector() {
  local role="$1" t=$SECONDS
  local dir_var="${role}_dir" ref_var="${role}_ref" archive_var="${role}_archive"
  local dir="${!dir_var}" ref="${!ref_var}" archive="${!archive_var}"
  if [[ ! -f "$dir/$role.img" ]]; then
    mkdir -p "$work/$role"
    nasm -f bin -o "$work/$role/$role.bin" "$src/$role.asm"
    [[ $(stat -c %s "$work/$role/$role.bin") -eq 512 ]] || { log "$role.bin is not 512 bytes"; exit 1; }
    # A raw 1 MiB disk: the boot sector at LBA 0, zeros after it.
    cp "$work/$role/$role.bin" "$work/$role/$role.img"
    truncate -s 1M "$work/$role/$role.img"
    touch -d "@$SOURCE_DATE_EPOCH" "$work/$role/$role.img"
    rm -rf "$dir.partial" && mkdir -p "$dir.partial"
    cp -p "$work/$role/$role.img" "$dir.partial/"
    rm -rf "$dir" && mv "$dir.partial" "$dir"
  fi
  if [[ ! -f "$archive" ]]; then
    build_container "$ref" "$archive" "$dir/$role.img" "/disk/$role.img"
    prune_old "$role" "$dir" "$archive"
    log "built $ref in $((SECONDS - t)) s ($(stat -c %s "$archive") bytes archive)"
  fi
}

# --- Linux guest -------------------------------------------------------------------------------
# The initramfs: /init, busybox (its applets linked at boot by /init), /dev/console, as a newc
# cpio with fixed owners and times, gzip'd without a name or time stamp.
build_initramfs() {
  local root="$1" out="$2" busybox="$3"
  mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,dev,proc,sys,tmp}
  install -m 0755 "$busybox" "$root/bin/busybox"
  ln -s busybox "$root/bin/sh"
  install -m 0755 "$src/linux/init" "$root/init"
  # The kernel opens /dev/console for /init's stdio before any devtmpfs is mounted.
  mknod -m 0600 "$root/dev/console" c 5 1
  find "$root" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
  (cd "$root" && find . -mindepth 1 | LC_ALL=C sort | cpio --quiet -o -H newc -R 0:0 --reproducible) | gzip -n -9 > "$out"
}

build_linux() {
  local dir="$linux_dir" t=$SECONDS w="$work/linux"
  if [[ ! -f "$dir/linux.img" ]]; then
    mkdir -p "$w/debs" "$w/boot"
    # The packages, exactly the versions in the key (apt checks their SHA256).
    (cd "$w/debs" && nice -n 5 apt-get download -qq -o APT::Sandbox::User=root "$kernel_pkg" "$busybox_pkg" >&2)
    # The kernel: only /boot/vmlinuz-* out of the package (its 400 MB of modules are not needed:
    # serial console, devtmpfs, DMI and ACPI power-off are built into Debian's kernel).
    dpkg-deb --fsys-tarfile "$w"/debs/linux-image-*.deb | tar -x -C "$w" --wildcards './boot/vmlinuz-*'
    mv "$w"/boot/vmlinuz-* "$w/vmlinuz"
    dpkg-deb -x "$w"/debs/busybox-static_*.deb "$w/busybox"
    build_initramfs "$w/initramfs" "$w/initrd.img" "$w/busybox/bin/busybox"
    cp "$src/linux/syslinux.cfg" "$w/syslinux.cfg"
    touch -d "@$SOURCE_DATE_EPOCH" "$w/vmlinuz" "$w/initrd.img" "$w/syslinux.cfg"

    # The disk: 1 MiB for the MBR (SYSLINUX's boot code) and alignment, then one FAT partition
    # (type 0x0c, active) sized to its files plus 2 MiB, rounded up to whole MiB.
    local mib=1048576 payload part_mib img="$w/linux.img"
    payload=$(( $(stat -c %s "$w/vmlinuz") + $(stat -c %s "$w/initrd.img") ))
    part_mib=$(( (payload + 2 * mib + mib - 1) / mib ))
    truncate -s $(( (1 + part_mib) * mib )) "$img"
    printf 'label: dos\nlabel-id: 0x76677374\nunit: sectors\nstart=2048, size=%d, type=c, bootable\n' $(( part_mib * 2048 )) \
      | sfdisk --quiet --no-reread --no-tell-kernel "$img" >/dev/null
    dd if="$syslinux_mbr" of="$img" bs=440 count=1 conv=notrunc status=none
    # FAT in the partition; hidden sectors = the partition's start, as SYSLINUX's boot sector
    # loads ldlinux.sys by absolute LBA. --invariant: fixed serial and times, -i: fixed volume ID.
    mkfs.fat --invariant -i 76677374 -n VIRTGATE -h 2048 --offset=2048 "$img" $(( part_mib * 1024 )) >/dev/null
    syslinux --offset $mib --install "$img"
    local f
    for f in syslinux.cfg vmlinuz initrd.img; do
      MTOOLS_SKIP_CHECK=1 mcopy -m -o -i "$img@@$mib" "$w/$f" "::$f"
    done
    touch -d "@$SOURCE_DATE_EPOCH" "$img"
    rm -rf "$dir.partial" && mkdir -p "$dir.partial"
    cp -p "$img" "$w/vmlinuz" "$w/initrd.img" "$dir.partial/"
    rm -rf "$dir" && mv "$dir.partial" "$dir"
    log "Linux guest disk: $kernel_pkg + $busybox_pkg, $(stat -c %s "$dir/linux.img") bytes"
  fi
  if [[ ! -f "$linux_archive" ]]; then
    build_container "$linux_ref" "$linux_archive" \
      "$dir/linux.img" /disk/linux.img "$dir/vmlinuz" /boot/vmlinuz "$dir/initrd.img" /boot/initrd.img
    prune_old linux "$dir" "$linux_archive"
    log "built $linux_ref in $((SECONDS - t)) s ($(( $(stat -c %s "$linux_archive") / 1024 )) KiB archive)"
  fi
}

build_sector bootsector
build_sector counter
build_linux
# Untag the guest images of earlier inputs.
bah images --format '{{.Name}}:{{.Tag}}' 2>/dev/null | grep '^localhost/virtgate/guest-' | while read -r old; do
  case " $bootsector_ref $counter_ref $linux_ref " in
    *" $old "*) ;;
    *) bah rmi "$old" >/dev/null 2>&1 || true ;;
  esac
done || true
log "guests ready in $((SECONDS - started)) s"
report
