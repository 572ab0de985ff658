#!/usr/bin/env bash
# Builds the images the real test node runs, with buildah:
#   - virtgate's agent and aggregator images, the canary's containerDisk, and the stand-in base
#     they are built on, by scripts/images.sh (the same images the release ships; see there);
#   - the pod sandbox ("pause") image: the static binary of test/lab/node/pause, from scratch;
#   - cluster DNS: the static CoreDNS binary test/lab/controlplane/build.sh built, from scratch.
# Each is saved as a docker-archive under $VIRTGATE_CACHE/images, named by a hash of everything
# it is built from, so an unchanged input is never rebuilt. The suite imports the archives into
# its containerd.
#
#   VIRTGATE_CACHE   cache root (default: ~/.cache/virtgate)
#   --check          build nothing; exit 1 if an archive is missing
#
# Prints one line per image on stdout: <role> <image reference> <archive path>.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
cache="${VIRTGATE_CACHE:-$HOME/.cache/virtgate}"
images="$cache/images"

log() { printf '[images] %s\n' "$*" >&2; }
hash() { sha256sum | cut -c1-16; }

# The same buildah store as scripts/images.sh.
storage=(--root "$images/storage" --runroot "${XDG_RUNTIME_DIR:-/run}/virtgate-buildah" --storage-driver overlay)
bah() { nice -n 5 buildah "${storage[@]}" "$@"; }
# The text of one function of this script: the recipe part of the image's cache key.
recipe() { sed -n "/^$1() {/,/^}/p" "${BASH_SOURCE[0]}"; }

pause_key="$( (recipe build_pause; cat "$here/pause/main.go" "$here/pause/go.mod"; go version 2>/dev/null) | hash)"
pause_ref="localhost/virtgate-pause:$pause_key"
pause_archive="$images/pause-$pause_key.tar"

# CoreDNS: the binary the control-plane build made (build.sh names it by its version).
coredns_version="$(sed -n 's/^coredns_version="\(.*\)"$/\1/p' "$here/../controlplane/build.sh")"
coredns_bin="$(bash "$here/../controlplane/build.sh" --check | tail -n 1)/coredns-$coredns_version"
coredns_key="$( (recipe build_coredns; sha256sum < "$coredns_bin") | hash)"
coredns_ref="localhost/virtgate-coredns:$coredns_version-$coredns_key"
coredns_archive="$images/coredns-$coredns_key.tar"

if [[ "${1:-}" == "--check" ]]; then
  [[ -f "$pause_archive" ]] || { log "missing $pause_archive; build with: bash test/lab/node/images.sh"; exit 1; }
  [[ -f "$coredns_archive" ]] || { log "missing $coredns_archive; build with: bash test/lab/node/images.sh"; exit 1; }
  echo "pause $pause_ref $pause_archive"
  echo "coredns $coredns_ref $coredns_archive"
  bash "$repo/scripts/images.sh" --check
  exit 0
fi

for tool in buildah go; do
  command -v "$tool" >/dev/null || { log "$tool is not installed (Debian: apt-get install buildah; Go >= 1.26)"; exit 1; }
done
mkdir -p "$images"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

build_pause() {
  [[ -f "$pause_archive" ]] && return
  local t=$SECONDS ctr
  (cd "$here/pause" && CGO_ENABLED=0 GOFLAGS="" nice -n 5 go build -trimpath -ldflags '-s -w' -o "$work/pause" .)
  ctr="$(bah from scratch)"
  bah copy "$ctr" "$work/pause" /pause >/dev/null
  bah config --entrypoint '["/pause"]' --cmd '[]' "$ctr"
  bah commit --quiet --rm "$ctr" "$pause_ref" >/dev/null
  bah push --quiet "$pause_ref" "docker-archive:$pause_archive.partial:$pause_ref" >/dev/null
  mv "$pause_archive.partial" "$pause_archive"
  find "$images" -maxdepth 1 -name "pause-*.tar" ! -path "$pause_archive" -delete
  log "built $pause_ref in $((SECONDS - t)) s"
}

build_coredns() {
  [[ -f "$coredns_archive" ]] && return
  local t=$SECONDS ctr
  ctr="$(bah from scratch)"
  bah copy "$ctr" "$coredns_bin" /coredns >/dev/null
  # Not root: the pod lets it bind port 53 (net.ipv4.ip_unprivileged_port_start), as real-node.ts deploys it.
  bah config --entrypoint '["/coredns"]' --cmd '["-conf","/etc/coredns/Corefile"]' --user 65532:65532 "$ctr"
  bah commit --quiet --rm "$ctr" "$coredns_ref" >/dev/null
  bah push --quiet "$coredns_ref" "docker-archive:$coredns_archive.partial:$coredns_ref" >/dev/null
  mv "$coredns_archive.partial" "$coredns_archive"
  find "$images" -maxdepth 1 -name "coredns-*.tar" ! -path "$coredns_archive" -delete
  log "built $coredns_ref in $((SECONDS - t)) s"
}

build_pause
echo "pause $pause_ref $pause_archive"
build_coredns
echo "coredns $coredns_ref $coredns_archive"
bash "$repo/scripts/images.sh"
