#!/usr/bin/env bash
# Builds KubeVirt v1.9.0's container images for the real test node, offline, with buildah: the
# commands test/lab/kubevirt/build.sh built from source, on Debian trixie roots made by mmdebstrap
# from the Debian mirror (libvirt 11.3, QEMU 10.0). No container registry is reachable here: each
# image is saved as a docker-archive under the exact reference the operator derives from the
# KubeVirt CR (imageRegistry localhost/kubevirt, imageTag v1.9.0), so `ctr images import` yields
# it and nothing is ever pulled.
#
#   localhost/kubevirt/virt-operator, virt-api, virt-controller (and virt-exportproxy when
#       build.sh built it): the static Go command on a distroless-like root (user 1001, CA bundle,
#       /tmp), as upstream's images on gcr.io/distroless/base-debian12;
#   localhost/kubevirt/virt-handler: virt-handler and virt-chroot on a Debian root with what they
#       run (nft, sysctl, findmnt, passt-repair), as upstream's handlerbase;
#   localhost/kubevirt/virt-launcher: libvirt (libvirtd, virtlogd, virsh), QEMU, qemu-img and
#       KubeVirt's launcher commands, user 107, as upstream's launcherbase; Debian's libvirt has
#       no virtqemud, so /usr/sbin/virtqemud is a documented shim over libvirtd (launcher_files,
#       test/lab/kubevirt/README.md).
#
# Roots are cached as tars (the expensive part), images as archives, all in $VIRTGATE_CACHE/images
# and named by a hash of everything they are made from (this script's recipe, package lists,
# Debian sources, KubeVirt's binaries and source files), so an unchanged input is never rebuilt.
# This machine's apt settings are used while bootstrapping only: the images carry no apt at all.
#
#   VIRTGATE_CACHE   cache root (default: ~/.cache/virtgate)
#   --check          build nothing; exit 1 if an archive is missing
#
# Prints one line per image on stdout: <role> <image reference> <archive path>.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache="${VIRTGATE_CACHE:-$HOME/.cache/virtgate}"
images="$cache/images"
version="v1.9.0"
registry="localhost/kubevirt"
suite="trixie"
src="$cache/go/mod/kubevirt.io/kubevirt@$version"

log() { printf '[kubevirt-images] %s\n' "$*" >&2; }
hash() { sha256sum | cut -c1-16; }
# The same buildah store as test/lab/node/images.sh.
storage=(--root "$images/storage" --runroot "${XDG_RUNTIME_DIR:-/run}/virtgate-buildah" --storage-driver overlay)
bah() { nice -n 5 buildah "${storage[@]}" "$@"; }
# The text of one function of this script: the recipe part of a cache key.
recipe() { sed -n "/^$1() {/,/^}/p" "${BASH_SOURCE[0]}"; }

if ! bin="$(bash "$here/build.sh" --check | tail -n 1)" || [[ ! -d "$bin" ]]; then
  log "KubeVirt's binaries are not built (above); build them with: bash test/lab/kubevirt/build.sh"
  exit 1
fi
[[ -d "$src/cmd/virt-launcher" ]] || { log "no KubeVirt $version source at $src (build.sh downloads it)"; exit 1; }

# --- what each image is made of ---------------------------------------------------------------
# Debian packages (their hard dependencies come along; no Recommends). Checked against the code
# paths of v1.9.0: what the commands exec, not upstream's whole CentOS lists (see README.md).
launcher_packages=(
  libvirt-daemon libvirt-daemon-driver-qemu libvirt-clients  # libvirtd, virtlogd, the QEMU driver, virsh
  qemu-system-x86 qemu-utils    # QEMU (+ SeaBIOS, iPXE ROMs); qemu-img and qemu-storage-daemon
  libnbd0                       # virt-launcher is linked against it (build.sh: cgo, trixie's libnbd)
  xorriso                       # xorrisofs: cloud-init and config-drive ISOs
  procps passt                  # ps for debugging; passt for the passt network binding
)
handler_packages=(nftables procps passt ca-certificates)  # nft, sysctl, passt-repair; findmnt/tar/bash are Essential
# Dropped by dpkg while installing: documentation (but not copyrights), manuals, translations, and
# the two QEMU system emulators KubeVirt never runs on x86_64 (i386 and microvm, 36 MiB).
dpkg_excludes=(
  'path-exclude=/usr/share/doc/*' 'path-include=/usr/share/doc/*/copyright'
  'path-exclude=/usr/share/man/*' 'path-exclude=/usr/share/info/*' 'path-exclude=/usr/share/locale/*'
  'path-exclude=/usr/share/lintian/*' 'path-exclude=/usr/share/bash-completion/*'
  'path-exclude=/usr/bin/qemu-system-i386' 'path-exclude=/usr/bin/qemu-system-x86_64-microvm'
)
mirror="$(grep -h '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | grep -v security | head -1 | awk '{print $2}')"
mirror="${mirror:-http://deb.debian.org/debian}"
roles=(virt-operator virt-api virt-controller virt-handler virt-launcher)
[[ -x "$bin/virt-exportproxy" ]] && roles+=(virt-exportproxy)

# KubeVirt's binaries and source files each image holds.
binaries_of() {
  case "$1" in
    virt-handler) echo virt-handler virt-chroot ;;
    virt-launcher) echo virt-launcher virt-launcher-monitor virt-freezer virt-probe virt-tail container-disk libvirt-hook-client ;;
    *) echo "$1" ;;
  esac
}
sources_of() {
  case "$1" in
    virt-handler) echo cmd/virt-handler/nsswitch.conf ;;
    virt-launcher) echo cmd/virt-launcher/qemu.conf cmd/virt-launcher/virtqemud.conf cmd/virt-launcher/qemu cmd/virt-launcher/nsswitch.conf cmd/virt-launcher/node-labeller/node-labeller.sh ;;
    *) echo cmd/virt-handler/nsswitch.conf ;;
  esac
}
root_of() {
  case "$1" in
    virt-handler) echo handler ;;
    virt-launcher) echo launcher ;;
    *) echo static ;;
  esac
}

sources_key="$( (echo "$suite $mirror"; cat /etc/apt/sources.list.d/debian.sources 2>/dev/null) | hash)"
declare -A root_key key archive ref
root_key[launcher]="$( (echo "$sources_key ${launcher_packages[*]} ${dpkg_excludes[*]}"; recipe make_root; recipe finish_root) | hash)"
root_key[handler]="$( (echo "$sources_key ${handler_packages[*]} ${dpkg_excludes[*]}"; recipe make_root; recipe finish_root) | hash)"
# The distroless-like root takes its CA bundle and os-release from the handler's root.
root_key[static]="$( (echo "${root_key[handler]}"; recipe static_root) | hash)"
root_tar() { echo "$images/kubevirt-root-$1-${root_key[$1]}.tar"; }

for role in "${roles[@]}"; do
  # shellcheck disable=SC2046
  key[$role]="$( (echo "$role ${root_key[$(root_of "$role")]}"; recipe files_of; recipe launcher_files; recipe build_image
    (cd "$bin" && sha256sum $(binaries_of "$role")); (cd "$src" && sha256sum $(sources_of "$role"))) | hash)"
  archive[$role]="$images/kubevirt-$role-${key[$role]}.tar"
  ref[$role]="$registry/$role:$version"
done

report() {
  for role in "${roles[@]}"; do echo "$role ${ref[$role]} ${archive[$role]}"; done
}

if [[ "${1:-}" == "--check" ]]; then
  for role in "${roles[@]}"; do
    [[ -f "${archive[$role]}" ]] || { log "missing ${archive[$role]}; build with: bash test/lab/kubevirt/images.sh"; exit 1; }
  done
  report
  exit 0
fi

for tool in buildah mmdebstrap setcap; do
  command -v "$tool" >/dev/null || { log "$tool is not installed (Debian: apt-get install buildah mmdebstrap libcap2-bin)"; exit 1; }
done
(( EUID == 0 )) || { log "needs root (mmdebstrap --mode=root, file ownership and capabilities in the images)"; exit 1; }
mkdir -p "$images"
started=$SECONDS
work="$(mktemp -d "$images/kubevirt-work.XXXXXX")"
trap 'rm -rf "$work"' EXIT

# Keeps only the newest archive of each kind: a changed input makes the older ones useless.
prune_old() {
  local prefix="$1" keep="$2"
  find "$images" -maxdepth 1 -name "$prefix-*.tar" ! -path "$keep" -delete
}
# A tar of a directory with numeric owners, hard links and file capabilities, in a stable order.
pack() {
  tar --numeric-owner --sort=name --xattrs --xattrs-include='security.capability' -C "$1" -cf "$2" .
}

# --- Debian trixie roots ----------------------------------------------------------------------
# Variant "essential" (minbase without apt: nothing in these images installs packages) plus the
# role's packages, Recommends off. Bootstrapped in the work directory, cleaned, then packed.
make_root() {
  local kind="$1" out="$2"; shift 2
  local t=$SECONDS dir="$work/root-$kind" aptopts=() dpkgopts=() opt f
  for f in /etc/apt/apt.conf.d/*; do
    # Only settings that change how apt fetches (e.g. an archive snapshot's validity), never hooks.
    grep -q '^Acquire::' "$f" 2>/dev/null && aptopts+=(--aptopt="$f")
  done
  for opt in "${dpkg_excludes[@]}"; do dpkgopts+=(--dpkgopt="$opt"); done
  nice -n 5 mmdebstrap --quiet --variant=essential --mode=root --format=directory \
    "${aptopts[@]}" --aptopt='APT::Install-Recommends "false"' "${dpkgopts[@]}" \
    --include="$(IFS=,; echo "$*")" "$suite" "$dir" "$mirror"
  finish_root "$dir" "$kind"
  local installed
  installed="$(find "$dir/var/lib/dpkg/info" -name '*.list' | wc -l)"
  pack "$dir" "$out.partial"
  rm -rf "$dir"
  mv "$out.partial" "$out"
  log "root $kind: $# packages asked, $installed installed, $(du -m "$out" | cut -f1) MiB, in $((SECONDS - t)) s"
}

# What the bootstrap leaves that an image must not carry, and the users KubeVirt's images have.
finish_root() {
  local d="$1" kind="$2"
  # The build's apt (this machine's sources and options), its lists and logs; the host's
  # hostname and resolver (mmdebstrap copies them; the kubelet mounts the pod's own); /dev's
  # nodes (the runtime makes /dev).
  rm -rf "$d/etc/apt" "$d/var/lib/apt" "$d/var/cache/apt" "$d/var/log/apt" "$d"/dev/*
  rm -f "$d/etc/dpkg/dpkg.cfg.d/99mmdebstrap" "$d/etc/hostname" "$d/etc/resolv.conf" \
    "$d"/var/log/*.log "$d"/var/cache/debconf/*-old "$d"/var/lib/dpkg/*-old
  # What Debian gave its QEMU user (libvirt-qemu) becomes KubeVirt's qemu user's, as on CentOS.
  local lq_uid
  lq_uid="$(awk -F: '$1 == "libvirt-qemu" {print $3}' "$d/etc/passwd")"
  if [[ -n "$lq_uid" ]]; then
    find "$d/etc/libvirt" "$d/var/lib/libvirt" "$d/var/cache/libvirt" "$d/var/log/libvirt" \
      -uid "$lq_uid" -exec chown -h 107:107 {} +
  fi
  # passwd and group exactly as upstream's images (cmd/virt-launcher and cmd/virt-handler
  # BUILD.bazel): qemu 107:107 and root. Debian's system users (messagebus, polkitd, ...) go, and
  # the shadow files with them: nothing in these images logs in.
  if [[ "$kind" == launcher ]]; then
    printf 'qemu:x:107:107::/home/qemu:/bin/bash\nroot:x:0:0:root:/root:/bin/bash\n' > "$d/etc/passwd"
    printf 'qemu:x:107:\nroot:x:0:\n' > "$d/etc/group"
    # Debian's QEMU driver resolves its built-in user and group, libvirt-qemu, when it starts as
    # root, before it reads qemu.conf (whose user = "qemu" then applies): without the name the
    # node labeller's daemon fails ("Failed to parse user 'libvirt-qemu'"). A second name for 107,
    # after qemu's, so that 107 is still called qemu.
    echo 'libvirt-qemu:x:107:107::/home/qemu:/usr/sbin/nologin' >> "$d/etc/passwd"
    echo 'libvirt-qemu:x:107:' >> "$d/etc/group"
  else
    printf 'qemu:x:107:107:::/bin/bash\nroot:x:0:0:root:/root:/bin/bash\n' > "$d/etc/passwd"
    printf 'qemu:x:107:\nroot:x:0:\n' > "$d/etc/group"
  fi
  rm -f "$d/etc/shadow" "$d/etc/gshadow" "$d"/etc/passwd- "$d"/etc/group- "$d"/etc/shadow- "$d"/etc/gshadow-
  if [[ "$kind" == launcher ]]; then
    # Relative, as upstream: virt-handler reads the launcher's sockets through
    # /proc/<pid>/root/var/run/..., where an absolute /run would resolve in virt-handler's root.
    rm -f "$d/var/run" && ln -s ../run "$d/var/run"
  fi
}

static_root() {
  local out="$1" t=$SECONDS d="$work/root-static"
  mkdir -p "$d/etc/ssl/certs" "$d/usr/lib" "$d/usr/bin"
  install -d -m 1777 "$d/tmp"
  # Upstream's //:passwd-image: nonroot-user 1001, the user the images run as.
  printf 'nonroot-user:x:1001:1001::/home/nonroot-user:/bin/bash\n' > "$d/etc/passwd"
  printf 'root:x:0:\nnonroot-user:x:1001:\n' > "$d/etc/group"
  tar -xOf "$(root_tar handler)" ./etc/ssl/certs/ca-certificates.crt > "$d/etc/ssl/certs/ca-certificates.crt"
  tar -xOf "$(root_tar handler)" ./usr/lib/os-release > "$d/usr/lib/os-release"
  ln -s ../usr/lib/os-release "$d/etc/os-release"
  chmod 0644 "$d"/etc/passwd "$d"/etc/group "$d"/etc/ssl/certs/ca-certificates.crt "$d/usr/lib/os-release"
  pack "$d" "$out.partial"
  rm -rf "$d"
  mv "$out.partial" "$out"
  log "root static in $((SECONDS - t)) s"
}

ensure_root() {
  local kind="$1" out
  out="$(root_tar "$kind")"
  [[ -f "$out" ]] && return
  case "$kind" in
    launcher) make_root launcher "$out" "${launcher_packages[@]}" ;;
    handler) make_root handler "$out" "${handler_packages[@]}" ;;
    static) ensure_root handler; static_root "$out" ;;
  esac
  prune_old "kubevirt-root-$kind" "$out"
}

# --- the KubeVirt layer of each image ---------------------------------------------------------
files_of() {
  local role="$1" d="$2" b
  install -d "$d/usr/bin" "$d/etc"
  for b in $(binaries_of "$role"); do install -m 0755 "$bin/$b" "$d/usr/bin/$b"; done
  case "$role" in
    virt-launcher) launcher_files "$d" ;;
    virt-handler) install -m 0644 "$src/cmd/virt-handler/nsswitch.conf" "$d/etc/nsswitch.conf" ;;
    *) install -m 0644 "$src/cmd/virt-handler/nsswitch.conf" "$d/etc/nsswitch.conf" ;;
  esac
}

launcher_files() {
  local d="$1"
  # As cmd/virt-launcher/BUILD.bazel lays them out.
  install -m 0755 "$src/cmd/virt-launcher/node-labeller/node-labeller.sh" "$d/usr/bin/node-labeller.sh"
  # virt-launcher (uid 107) replaces the hook when it starts: the directory is 107's, as upstream's layer makes it.
  install -d -o 107 -g 107 "$d/etc/libvirt/hooks"
  install -m 0644 "$src/cmd/virt-launcher/qemu.conf" "$src/cmd/virt-launcher/virtqemud.conf" "$d/etc/libvirt/"
  install -m 0644 "$src/cmd/virt-launcher/nsswitch.conf" "$d/etc/nsswitch.conf"
  install -m 0755 -o 107 -g 107 "$src/cmd/virt-launcher/qemu" "$d/etc/libvirt/hooks/qemu"
  install -d -m 0755 "$d/usr/lib64/qemu-kvm"
  # virt-launcher-monitor hands NET_BIND_SERVICE to virt-launcher (and so virtqemud) as an
  # ambient capability; as user 107 it has it only from the file (upstream's xattrs rule).
  setcap cap_net_bind_service=+ep "$d/usr/bin/virt-launcher-monitor"

  # The virtqemud bridge: README.md ("virtqemud on Debian") says why and how.
  install -d "$d/usr/sbin" "$d/usr/libexec/virtgate"
  ln -s ../../sbin/libvirtd "$d/usr/libexec/virtgate/virtqemud"
  cat > "$d/usr/sbin/virtqemud" <<'SHIM'
#!/bin/sh
# virtqemud for Debian's libvirt: a bridge added by virtgate's test images, not part of libvirt.
#
# KubeVirt's virt-launcher runs `/usr/sbin/virtqemud -f /var/run/libvirt/virtqemud.conf` (libvirt's
# modular QEMU daemon) and, as user 107, connects to
# qemu+unix:///session?socket=/var/run/libvirt/virtqemud-sock; virt-handler reaches the same socket
# for migrations; the node labeller runs `virtqemud -d` as root. Debian builds only the monolithic
# libvirtd: the same daemon code with the same QEMU driver, options (-f -d -p -t -v) and config
# keys, but its socket is called libvirt-sock. This script bridges exactly the differences:
#
# 1. The socket's name: a relative link virtqemud-sock -> libvirt-sock where libvirtd will make its
#    socket (root: /run/libvirt; otherwise $XDG_RUNTIME_DIR/libvirt, as libvirt computes it; the
#    launcher pod sets XDG_RUNTIME_DIR=/var/run). Relative, so that it also resolves through
#    /proc/<pid>/root from virt-handler. A client that probes for the modular sockets finds it too.
dir=/run/libvirt
[ "$(id -u)" = 0 ] || dir="${XDG_RUNTIME_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}}/libvirt"
mkdir -p "$dir" && ln -sfn libvirt-sock "$dir/virtqemud-sock" || exit 1
# 2. The default config: run by root without -f, virtqemud reads /etc/libvirt/virtqemud.conf
#    (KubeVirt's), libvirtd would read libvirtd.conf.
case " $* " in
  *" -f "* | *" --config "* | *" --config="*) ;;
  *) [ "$(id -u)" = 0 ] && set -- -f /etc/libvirt/virtqemud.conf "$@" ;;
esac
# 3. The process's name: virt-handler finds the daemon among virt-launcher's children by the name
#    virtqemud (pkg/hypervisor/common FindVirtqemudProcess, to raise its memlock limit). A process
#    is named after the path it was executed by, so libvirtd runs through a link called virtqemud.
exec /usr/libexec/virtgate/virtqemud "$@"
SHIM
  chmod 0755 "$d/usr/sbin/virtqemud"
}

build_image() {
  local role="$1" t=$SECONDS ctr d="$work/files-$1" user entrypoint
  ensure_root "$(root_of "$role")"
  files_of "$role" "$d"
  pack "$d" "$work/files-$role.tar"
  case "$role" in
    virt-launcher) user=107 ;;
    virt-handler) user=0 ;;
    *) user=1001 ;;
  esac
  entrypoint="[\"/usr/bin/$role\"]"
  ctr="$(bah from --pull=never scratch)"
  bah add "$ctr" "$(root_tar "$(root_of "$role")")" / >/dev/null
  bah add "$ctr" "$work/files-$role.tar" / >/dev/null
  bah config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin --user "$user" \
    --entrypoint "$entrypoint" --cmd '[]' --label "io.kubevirt.version=$version" --label "io.virtgate.key=${key[$role]}" "$ctr"
  bah commit --quiet --rm "$ctr" "${ref[$role]}" >/dev/null
  bah push --quiet "${ref[$role]}" "docker-archive:${archive[$role]}.partial:${ref[$role]}" >/dev/null
  # The archive is what the node imports; the store keeps no copy (it is test/node's build cache).
  bah rmi "${ref[$role]}" >/dev/null
  mv "${archive[$role]}.partial" "${archive[$role]}"
  prune_old "kubevirt-$role" "${archive[$role]}"
  rm -rf "$d" "$work/files-$role.tar"
  log "built ${ref[$role]} in $((SECONDS - t)) s ($(du -m "${archive[$role]}" | cut -f1) MiB archive)"
}

[[ -x "$bin/virt-exportproxy" ]] || log "warning: no virt-exportproxy in $bin: the operator deploys it by default (VMExport is GA) and waits for it before KubeVirt is Available"
for role in "${roles[@]}"; do
  if [[ -f "${archive[$role]}" ]]; then
    log "up to date: ${ref[$role]} ($(du -m "${archive[$role]}" | cut -f1) MiB archive)"
  else
    build_image "$role"
  fi
done
log "KubeVirt images ready in $((SECONDS - started)) s"
report
