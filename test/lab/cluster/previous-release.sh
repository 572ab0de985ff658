#!/usr/bin/env bash
# The previous release, the starting point of the rolling upgrade (test/cluster/upgrade.test.ts):
# the chart and the agent and aggregator images of an earlier commit of this repository, built by
# that commit's own scripts/images.sh, as its users got them. The commit is a test input, fixed
# here; move it forward to the last release users run.
#
# The commit's files are taken from this clone's history (git archive) into
# $VIRTGATE_CACHE/previous-release/<commit>; its images land in the same image cache as this
# commit's, named by the hash of their inputs, so a warm run builds nothing.
#
#   VIRTGATE_CACHE   cache root (default: ~/.cache/virtgate)
#   --check          build nothing; exit 1 if something is missing
#
# Prints `chart <dir>` and then what that commit's scripts/images.sh prints (<role> <ref> <archive>).
set -euo pipefail

# The commit that added aggregator.shutdownDelaySeconds: upgrades from it keep the Service answering.
commit=b90731fcbacb9f99aedf2b0c1584e3beea404d52

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
cache="${VIRTGATE_CACHE:-$HOME/.cache/virtgate}"
tree="$cache/previous-release/$commit"
log() { printf '[previous-release] %s\n' "$*" >&2; }

if [[ ! -f "$tree/.complete" ]]; then
  if [[ "${1:-}" == "--check" ]]; then
    log "missing $tree; build with: bash test/lab/cluster/previous-release.sh"
    exit 1
  fi
  if ! git -C "$repo" cat-file -e "$commit^{commit}" 2>/dev/null; then
    log "commit $commit (the previous release) is not in this clone's history; a shallow clone needs: git fetch --unshallow"
    exit 1
  fi
  rm -rf "$tree.partial"
  mkdir -p "$tree.partial"
  git -C "$repo" archive "$commit" | tar -x -C "$tree.partial"
  # Its scripts/images.sh lists its build context with git ls-files: a repository, nothing committed.
  git -C "$tree.partial" init -q
  touch "$tree.partial/.complete"
  rm -rf "$tree"
  mv "$tree.partial" "$tree"
  log "commit ${commit:0:12} unpacked into $tree"
fi

echo "chart $tree/charts/virtgate"
echo "commit $commit"
bash "$tree/scripts/images.sh" "$@"
