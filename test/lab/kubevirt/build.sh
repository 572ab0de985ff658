#!/usr/bin/env bash
# Builds KubeVirt v1.9.0 from source, offline, for the real-node tests (test/node): the commands
# one VMI needs, into a cache outside the repository. Idempotent: a second run with the same
# inputs only reports what it found.
#
#   - virt-operator, virt-api, virt-controller, virt-handler, virt-chroot, virt-freezer,
#     virt-probe, virt-tail, virt-launcher-monitor, libvirt-hook-client, and the tools
#     resource-generator (KubeVirt's CRDs) and manifest-templator: on this machine, from this
#     wrapper module (go.mod), pure Go except virt-handler (cgo for <linux/kvm.h>);
#   - virt-launcher: cgo against libnbd (trixie's libnbd-dev 1.22: bookworm's 1.14 is too old
#     for the bindings), so it is built in a Debian trixie root made by mmdebstrap, with this
#     machine's Go and module cache bind-mounted; libvirt is loaded at run time (libvirt_dlopen);
#   - container-disk: KubeVirt's small C program, linked static.
#
#   VIRTGATE_CACHE   cache root (default: ~/.cache/virtgate)
#   --check          build nothing; exit 1 with instructions if a binary is missing
#
# Prints the bin directory on the last line of stdout.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache="${VIRTGATE_CACHE:-$HOME/.cache/virtgate}"
version="v1.9.0"

log() { printf '[kubevirt] %s\n' "$*" >&2; }
hash() { sha256sum | cut -c1-16; }
recipe() { sed -n "/^$1() {/,/^}/p" "$here/build.sh"; }

# Paths relative to this folder: a clone elsewhere has the same stamp.
stamp="$( ( (cd "$here" && cat go.mod go.sum && find third_party -type f | LC_ALL=C sort | xargs sha256sum); recipe build_host; recipe build_launcher; echo "$version") | hash)"
bin="$cache/kubevirt/$version-$stamp/bin"

export GOMODCACHE="$cache/go/mod"
export GOCACHE="$cache/go/build"
export GOFLAGS="-mod=mod"

host_cmds=(virt-operator virt-api virt-controller virt-exportproxy virt-handler virt-chroot virt-freezer virt-probe virt-tail virt-launcher-monitor libvirt-hook-client resource-generator manifest-templator)
want=("${host_cmds[@]}" virt-launcher container-disk)
missing=()
for b in "${want[@]}"; do [[ -x "$bin/$b" ]] || missing+=("$b"); done
[[ -f "$bin/../manifests/kubevirt-operator.yaml.in" ]] || missing+=(manifests)

if [[ "${1:-}" == "--check" && ${#missing[@]} -gt 0 ]]; then
  log "missing KubeVirt binaries: ${missing[*]} (expected in $bin)."
  log "Build them once with: bash test/lab/kubevirt/build.sh   (needs Go >= 1.26, gcc, mmdebstrap and the package registries; ~15 min cold)"
  exit 1
fi
if [[ ${#missing[@]} -eq 0 ]]; then
  log "up to date: KubeVirt $version in $bin"
  echo "$bin"
  exit 0
fi
for tool in go gcc mmdebstrap; do
  command -v "$tool" >/dev/null || { log "$tool is not installed (Go >= 1.26; Debian: apt-get install gcc libc6-dev linux-libc-dev mmdebstrap)"; exit 1; }
done

mkdir -p "$bin"
started=$SECONDS
# As hack/version.sh stamps a release: without gitVersion the operator reports no version in
# status.observedKubeVirtVersion.
ldflags="-s -w -X kubevirt.io/client-go/version.gitVersion=$version -X kubevirt.io/client-go/version.gitTreeState=clean \
 -X kubevirt.io/client-go/version.gitCommit=79d34c1762169e5b0370ec491cef5ca12e6b504c -X kubevirt.io/client-go/version.buildDate=2026-07-01T00:00:00Z"

pkg_of() {
  case "$1" in
    libvirt-hook-client) echo kubevirt.io/kubevirt/cmd/virt-launcher/libvirt-hook-client ;;
    resource-generator|manifest-templator) echo "kubevirt.io/kubevirt/tools/$1" ;;
    *) echo "kubevirt.io/kubevirt/cmd/$1" ;;
  esac
}

build_host() {
  local pure=() t=$SECONDS
  for b in "${host_cmds[@]}"; do
    [[ -x "$bin/$b" || "$b" == virt-handler ]] && continue
    pure+=("$(pkg_of "$b")")
  done
  if [[ ${#pure[@]} -gt 0 ]]; then
    (cd "$here" && CGO_ENABLED=0 nice -n 5 go build -trimpath -ldflags "$ldflags" -o "$bin/" "${pure[@]}")
  fi
  if [[ ! -x "$bin/virt-handler" ]]; then
    (cd "$here" && CGO_ENABLED=1 nice -n 5 go build -trimpath -ldflags "$ldflags" -o "$bin/virt-handler" kubevirt.io/kubevirt/cmd/virt-handler)
  fi
  if [[ ! -x "$bin/container-disk" ]]; then
    gcc -O2 -static -o "$bin/container-disk" "$GOMODCACHE/kubevirt.io/kubevirt@$version/cmd/container-disk-v2alpha/main.c"
  fi
  log "built on this machine in $((SECONDS - t)) s"
}

# A Debian trixie root with a C toolchain and libnbd-dev, kept in the cache.
trixie_root="$cache/kubevirt/trixie-build-root"
build_launcher() {
  [[ -x "$bin/virt-launcher" ]] && return
  local t=$SECONDS
  if [[ ! -f "$trixie_root/.complete" ]]; then
    # Never into a bind mount a killed run may have left (its /dev, the Go cache).
    awk -v root="$trixie_root" 'index($5, root "/") == 1 { print $5 }' /proc/self/mountinfo | sort -r | xargs -r -n1 umount -l
    rm -rf --one-file-system "$trixie_root"
    local aptopts=()
    for f in /etc/apt/apt.conf.d/*; do grep -q '^Acquire::' "$f" 2>/dev/null && aptopts+=(--aptopt="$f"); done
    local mirror
    mirror="$(grep -h '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | grep -v security | head -1 | awk '{print $2}')"
    nice -n 5 mmdebstrap --quiet --variant=apt --mode=root "${aptopts[@]}" \
      --include=gcc,libc6-dev,libnbd-dev,pkgconf,ca-certificates \
      trixie "$trixie_root" "${mirror:-http://deb.debian.org/debian}"
    touch "$trixie_root/.complete"
    log "trixie build root in $((SECONDS - t)) s"
  fi
  local goroot
  goroot="$(go env GOROOT)"
  mkdir -p "$trixie_root/go" "$trixie_root/gomod" "$trixie_root/gocache" "$trixie_root/src" "$trixie_root/out"
  # A subshell, so that its EXIT trap unmounts on failure as on success.
  (
    mounts=("/proc:$trixie_root/proc" "/dev:$trixie_root/dev" "$goroot:$trixie_root/go" "$GOMODCACHE:$trixie_root/gomod" "$GOCACHE:$trixie_root/gocache" "$here:$trixie_root/src" "$bin:$trixie_root/out")
    trap 'for m in "${mounts[@]}"; do umount -l "${m#*:}" 2>/dev/null || true; done' EXIT
    for m in "${mounts[@]}"; do mount --bind "${m%%:*}" "${m#*:}"; done
    chroot "$trixie_root" /usr/bin/env -i PATH=/go/bin:/usr/bin:/bin HOME=/tmp GOROOT=/go GOMODCACHE=/gomod GOCACHE=/gocache \
      GOFLAGS=-mod=mod GOPROXY=off GOTOOLCHAIN=local GOTELEMETRY=off CGO_ENABLED=1 \
      sh -c "cd /src && nice -n 5 go build -trimpath -tags libvirt_dlopen -ldflags '$ldflags' -o /out/virt-launcher kubevirt.io/kubevirt/cmd/virt-launcher"
  )
  log "built virt-launcher in the trixie root in $((SECONDS - t)) s"
}

# The operator's manifest template with KubeVirt's generated parts filled in (the release's
# `manifest-templator --process-files` step); deploy.ts fills in the namespace and images.
render_templates() {
  local src="$GOMODCACHE/kubevirt.io/kubevirt@$version/manifests" out="$bin/../manifests"
  mkdir -p "$out"
  "$bin/manifest-templator" --process-files --generated-manifests-dir="$src/generated/" \
    --input-file="$src/release/kubevirt-operator.yaml.in" > "$out/kubevirt-operator.yaml.in.partial"
  mv "$out/kubevirt-operator.yaml.in.partial" "$out/kubevirt-operator.yaml.in"
  # The templator reads the logo even when it writes no OLM bundle.
  cp "$src/../assets/kubevirt_logo.png" "$out/kubevirt_logo.png"
}

log "building: ${missing[*]} with $(go version | awk '{print $3}') into $bin"
# Downloads first (the trixie root builds with the proxy off).
(cd "$here" && go mod download)
build_host
build_launcher
for b in "${want[@]}"; do
  [[ -x "$bin/$b" ]] || { log "missing after build: $bin/$b"; exit 1; }
done
render_templates
# CDI's CRD source for the tests without a node (test/lab/support/kubevirt-crds.ts): fetched now, not mid-test.
(cd "$here" && GOFLAGS= go mod download kubevirt.io/containerized-data-importer@v1.65.0)
# Older builds (another stamp) are of no further use.
find "$cache/kubevirt" -mindepth 1 -maxdepth 1 -name "$version-*" ! -name "$version-$stamp" -exec rm -rf {} +
log "done in $((SECONDS - started)) s"
echo "$bin"
