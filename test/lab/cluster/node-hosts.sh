#!/usr/bin/env bash
# What makes each node its own host (called by cluster.ts after network.sh; the variables come
# from layout.ts): its cgroup, under which its kubelet puts its pods (in every v1 hierarchy), and
# its mount namespace, held open by a file. In the namespace:
#   - /sys is a sysfs of the node's network namespace (its own /sys/class/net), with the host's
#     cgroup hierarchies kept under it;
#   - /run is a fresh tmpfs: the node's /run/kubevirt*, /run/netns, xtables lock;
#   - each of VGCL_NODE_PATHS (/var/lib/kubelet, ...) is a bind mount of the node's own directory;
#   - /dev is the node's own tmpfs copy of the host's (device nodes with their numbers; /dev/pts,
#     /dev/shm, /dev/mqueue bound), without the devices the layout hides. A device removed from it
#     later (cluster.ts hideDevice) is gone for every process on the node at once, the running
#     pods' host mounts included: they bind the same tmpfs;
#   - everything is made rshared within, so the kubelet's mounts reach containerd's namespace (a
#     slave of this one, containerd.ts). Nothing here propagates to the host: its / is private, and
#     the namespace starts as a slave of it.
# A host path missing on the host is created empty as a mount point and listed in
# $VGCL_ROOT/created-paths, which cleanup.sh removes again.
set -euo pipefail
: "${VGCL_ROOT:?}" "${VGCL_NODES:?}" "${VGCL_NODE_PATHS:?}"

ns_dir="$VGCL_ROOT/ns"
mkdir -p "$ns_dir"
# unshare can bind a namespace only to a file on a private mount.
mount --bind "$ns_dir" "$ns_dir"
mount --make-private "$ns_dir"

for target in $VGCL_NODE_PATHS; do
  if [[ ! -e "$target" ]]; then
    mkdir -p "$target"
    echo "$target" >> "$VGCL_ROOT/created-paths"
  fi
done

for spec in $VGCL_NODES; do
  IFS=, read -r name netns _veth _address _subnet _gateway nsfile cgroup hidden <<<"$spec"
  node_dir="$VGCL_ROOT/nodes/$name"
  for hierarchy in /sys/fs/cgroup/*/; do
    [[ -f "$hierarchy/cgroup.procs" && "$hierarchy" != */unified/ ]] || continue
    parent="$hierarchy"
    for part in ${cgroup//\// }; do
      mkdir -p "$parent/$part"
      # A new cpuset has no CPUs or memory nodes until given its parent's.
      if [[ -f "$parent/cpuset.cpus" ]]; then
        cat "$parent/cpuset.cpus" > "$parent/$part/cpuset.cpus"
        cat "$parent/cpuset.mems" > "$parent/$part/cpuset.mems"
      fi
      parent="$parent/$part"
    done
  done
  mkdir -p "$node_dir/cgroup"
  touch "$nsfile"
  VGCL_NODE_DIR="$node_dir" VGCL_NETNS="$netns" VGCL_HIDDEN="$hidden" unshare --mount="$nsfile" --propagation slave bash -euo pipefail -c '
    mount --rbind /sys/fs/cgroup "$VGCL_NODE_DIR/cgroup"
    # sysfs shows the network namespace of the process that mounts it.
    nsenter --net="/run/netns/$VGCL_NETNS" mount -t sysfs "vgcl-sysfs" /sys
    mount --move "$VGCL_NODE_DIR/cgroup" /sys/fs/cgroup
    mount -t tmpfs -o mode=755,size=64m "vgcl-run" /run
    for target in $VGCL_NODE_PATHS; do
      source="$VGCL_NODE_DIR/host$target"
      mkdir -p "$source"
      mount --bind "$source" "$target"
    done
    dev="$VGCL_NODE_DIR/dev"
    mkdir -p "$dev"
    mount -t tmpfs -o mode=755,size=1m "vgcl-dev" "$dev"
    # Device nodes, directories and links of this filesystem only (-x): not what is mounted below /dev.
    cp -ax /dev/. "$dev/"
    for sub in pts shm mqueue hugepages; do
      if mountpoint -q "/dev/$sub"; then mkdir -p "$dev/$sub"; mount --rbind "/dev/$sub" "$dev/$sub"; fi
    done
    IFS=: read -r -a devices <<<"$VGCL_HIDDEN"
    for device in "${devices[@]}"; do rm -f "$dev${device#/dev}"; done
    mount --move "$dev" /dev
    mount --make-rshared /
  '
done
