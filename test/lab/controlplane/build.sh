#!/usr/bin/env bash
# Builds the real Kubernetes control plane the integration tests run against:
# etcd, kube-apiserver, kube-scheduler, kube-controller-manager (from this wrapper module)
# and helm, plus the kubelet, kube-proxy, kubectl and CoreDNS (cluster DNS) of the real node (test/node), and cosign
# (the release's image signatures, test/integration/release.test.ts), into a cache outside
# the repository. Idempotent: a second run with the same
# versions only reports what it found.
#
#   VIRTGATE_CACHE   cache root (default: ~/.cache/virtgate)
#   --check          build nothing; exit 1 with instructions if a binary is missing
#
# Prints the bin directory on the last line of stdout.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache="${VIRTGATE_CACHE:-$HOME/.cache/virtgate}"

k8s_version="v1.36.3"
helm_version="v4.3.2"
# CoreDNS is named by its version (coredns-<version>), so a bump rebuilds it alone, not the stamp's whole set.
coredns_version="v1.15.0"
# cosign likewise (cosign-<version>).
cosign_version="v3.1.3"
# The stamp changes whenever the wrapper module or a version changes, so a bump rebuilds.
stamp="$( (cat "$here/go.mod" "$here/go.sum"; echo "$k8s_version $helm_version") | sha256sum | cut -c1-16)"
bin="$cache/controlplane/$k8s_version-$stamp/bin"

# Go's own caches live beside the binaries, so deleting the cache root gives a true cold build.
export GOMODCACHE="$cache/go/mod"
export GOCACHE="$cache/go/build"
export GOFLAGS="-mod=mod"
export CGO_ENABLED=0

log() { printf '[controlplane] %s\n' "$*" >&2; }

want=(etcd kube-apiserver kube-scheduler kube-controller-manager kubelet kube-proxy kubectl helm "coredns-$coredns_version" "cosign-$cosign_version")
missing=()
for b in "${want[@]}"; do [[ -x "$bin/$b" ]] || missing+=("$b"); done

if [[ "${1:-}" == "--check" && ${#missing[@]} -gt 0 ]]; then
  log "missing control-plane binaries: ${missing[*]} (expected in $bin)."
  log "Build them once with: bash test/lab/controlplane/build.sh   (needs Go >= 1.26 and the Go module proxy; ~30 min cold)"
  exit 1
fi

if [[ ${#missing[@]} -eq 0 ]]; then
  log "up to date: ${want[*]} (Kubernetes $k8s_version, helm $helm_version) in $bin"
  echo "$bin"
  exit 0
fi

if ! command -v go >/dev/null 2>&1; then
  log "Go is not installed, and ${missing[*]} must be built. Install Go >= 1.26 (https://go.dev/doc/install) and run this script again."
  exit 1
fi

mkdir -p "$bin"
started=$SECONDS
log "building: ${missing[*]} with $(go version | awk '{print $3}') into $bin"

version_pkg="k8s.io/component-base/version"
ldflags="-s -w \
 -X $version_pkg.gitVersion=$k8s_version \
 -X $version_pkg.gitMajor=1 -X $version_pkg.gitMinor=36 \
 -X $version_pkg.gitTreeState=clean \
 -X $version_pkg.buildDate=1970-01-01T00:00:00Z \
 -X k8s.io/client-go/pkg/version.gitVersion=$k8s_version"

k8s_pkgs=()
for b in kube-apiserver kube-scheduler kube-controller-manager kubelet kube-proxy kubectl; do
  [[ -x "$bin/$b" ]] || k8s_pkgs+=("k8s.io/kubernetes/cmd/$b")
done

(
  cd "$here"
  if [[ ${#k8s_pkgs[@]} -gt 0 ]]; then
    t=$SECONDS
    # One invocation, so the commands share their compiled dependencies.
    go build -trimpath -ldflags "$ldflags" -o "$bin/" "${k8s_pkgs[@]}"
    log "built ${k8s_pkgs[*]##*/} in $((SECONDS - t)) s"
  fi
  if [[ ! -x "$bin/etcd" ]]; then
    t=$SECONDS
    # etcd at the version k8s.io/kubernetes pins (see go.mod).
    go build -trimpath -ldflags "-s -w" -o "$bin/etcd" go.etcd.io/etcd/server/v3
    log "built etcd $(go list -m -f '{{.Version}}' go.etcd.io/etcd/server/v3) in $((SECONDS - t)) s"
  fi
)

if [[ ! -x "$bin/helm" ]]; then
  t=$SECONDS
  # helm has its own module graph, so it is installed apart from the wrapper module.
  GOFLAGS="" GOBIN="$bin" go install "helm.sh/helm/v4/cmd/helm@$helm_version"
  log "built helm $helm_version in $((SECONDS - t)) s"
fi

# A command from its own module graph, installed as <name>-<version> so a version bump rebuilds it alone.
install_versioned() {
  local name="$1" package="$2" version="$3" t=$SECONDS
  [[ -x "$bin/$name-$version" ]] && return
  GOFLAGS="" GOBIN="$bin/$name-build" go install -trimpath -ldflags "-s -w" "$package@$version"
  mv "$bin/$name-build/$name" "$bin/$name-$version"
  rmdir "$bin/$name-build"
  log "built $name $version in $((SECONDS - t)) s"
}
# CoreDNS with the plugins its release compiles in (plugin.cfg); cosign's CLI only.
install_versioned coredns github.com/coredns/coredns "$coredns_version"
install_versioned cosign github.com/sigstore/cosign/v3/cmd/cosign "$cosign_version"

for b in "${want[@]}"; do
  [[ -x "$bin/$b" ]] || { log "missing after build: $bin/$b"; exit 1; }
done
log "done in $((SECONDS - started)) s"
echo "$bin"
