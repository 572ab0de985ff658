#!/usr/bin/env bash
# Builds the images the real test node runs, with buildah:
#   - virtgate's agent and aggregator images, and the stand-in base they are built on, by
#     scripts/images.sh (the same images the release ships; see there);
#   - the pod sandbox ("pause") image: the static binary of test/lab/node/pause, from scratch.
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

if [[ "${1:-}" == "--check" ]]; then
  [[ -f "$pause_archive" ]] || { log "missing $pause_archive; build with: bash test/lab/node/images.sh"; exit 1; }
  echo "pause $pause_ref $pause_archive"
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

build_pause
echo "pause $pause_ref $pause_archive"
bash "$repo/scripts/images.sh"
