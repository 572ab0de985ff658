#!/usr/bin/env bash
# The host paths KubeVirt hard-codes, for the real node (called by real-node.ts before the
# kubelet starts; the variables come from layout.ts). Each path in VGNODE_HOST_PATHS becomes a
# bind mount of a directory under the node's root, made rshared: the kubelet refuses
# Bidirectional propagation (virt-handler's /run/kubevirt) from a mount that is not shared, and
# this machine's / is private. A marker file says the mount is the node's, so cleanup.sh
# removes only what this script made.
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
