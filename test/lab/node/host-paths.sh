#!/usr/bin/env bash
# The host paths KubeVirt hard-codes, for the real node (called by real-node.ts before the
# kubelet starts; the variables come from layout.ts). Each path in VGNODE_HOST_PATHS becomes a
# bind mount of a directory under the node's root, made rshared: containerd's mount namespace
# (containerd.ts) is a slave of the host's, so what the kubelet mounts under these paths reaches
# the containers. A marker file says the mount is the node's, so cleanup.sh removes only what
# this script made.
set -euo pipefail
: "${VGNODE_ROOT:?}" "${VGNODE_HOST_PATHS:?}"

for target in $VGNODE_HOST_PATHS; do
  if mountpoint -q "$target"; then
    echo "host-paths.sh: $target is already a mount point; a real kubelet or KubeVirt runs on this machine? Refusing to shadow it." >&2
    exit 1
  fi
  if [[ -e "$target" && -n "$(ls -A "$target" 2>/dev/null)" ]]; then
    echo "host-paths.sh: $target exists and is not empty; refusing to shadow it (remove it if an earlier, killed run left it)." >&2
    exit 1
  fi
  source="$VGNODE_ROOT/host${target}"
  mkdir -p "$source" "$target"
  touch "$source/.virtgate-node"
  mount --bind "$source" "$target"
  mount --make-rshared "$target"
done
