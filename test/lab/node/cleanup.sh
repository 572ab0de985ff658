#!/usr/bin/env bash
# Removes everything the real node (test/node) may have left on this machine, whether its run
# ended cleanly or was killed: processes, containers, mounts, cgroups, network namespaces, the
# bridge, routes, iptables chains, pod logs, changed kernel settings, and its directory. Safe to
# run any time and twice. The variables come from layout.ts (the suite passes them); run by
# hand with:  npx tsx ... or see docs/development.md.
set -uo pipefail
: "${VGNODE_ROOT:?}" "${VGNODE_HOST_PATHS:?}" "${VGNODE_BRIDGE:?}" "${VGNODE_POD_RANGE:?}" "${VGNODE_SERVICE_RANGE:?}" "${VGNODE_HOST_SERVICE_TABLE:?}" "${VGNODE_NAMESPACE_PREFIX:?}" "${VGNODE_SYSCTL_BACKUP:?}"

# 1. Processes: the node's kubelet, kube-proxy, containerd and containerd's shims (which outlive
#    it), known by their name and a command line that names the node's directory, and every
#    process in the kubelet's pod cgroups. Never anything else that merely mentions the path.
pids_of_node() {
  local p comm
  for p in /proc/[0-9]*; do
    p="${p#/proc/}"
    comm="$(cat "/proc/$p/comm" 2>/dev/null)" || continue
    case "$comm" in
      kubelet|kube-proxy|containerd|containerd-shim*|unshare) ;;
      *) continue ;;
    esac
    tr '\0' ' ' < "/proc/$p/cmdline" 2>/dev/null | grep -qF "$VGNODE_ROOT/" && echo "$p"
  done
  find /sys/fs/cgroup/*/kubepods -name cgroup.procs -exec cat {} + 2>/dev/null
}
for round in 1 2 3; do
  pids="$(pids_of_node | sort -u)"
  [[ -z "$pids" ]] && break
  # shellcheck disable=SC2086
  kill -KILL $pids 2>/dev/null
  sleep 1
done

# 2. Mounts under the node's directory (overlay rootfs, tmpfs volumes, shm), under the host paths
#    KubeVirt hard-codes when host-paths.sh made them (its marker file), and the pods' network
#    namespaces, deepest first.
owned_paths=("$VGNODE_ROOT")
for target in $VGNODE_HOST_PATHS; do
  [[ -e "$target/.virtgate-node" ]] && owned_paths+=("$target")
done
for owned in "${owned_paths[@]}"; do
  awk -v root="$owned" '$5 == root || index($5, root "/") == 1 { print $5 }' /proc/self/mountinfo | sort -r | while read -r m; do
    umount -l "$m" 2>/dev/null
  done
done
for owned in "${owned_paths[@]:1}"; do
  # Empty now that its bind mount is gone: only the mount point this script's sibling made.
  rmdir "$owned" 2>/dev/null
done
for ns in /run/netns/cni-*; do
  [[ -e "$ns" ]] || continue
  umount -l "$ns" 2>/dev/null; rm -f "$ns"
done

# 3. The kubelet's pod cgroups, deepest first, in every v1 hierarchy.
for hierarchy in /sys/fs/cgroup/*/kubepods; do
  [[ -d "$hierarchy" ]] && find "$hierarchy" -depth -type d -exec rmdir {} \; 2>/dev/null
done

# 4. Network: bridge (its veths went with the pods' namespaces), routes, policy rule, chains.
ip link del "$VGNODE_BRIDGE" 2>/dev/null
ip route del blackhole "$VGNODE_POD_RANGE" 2>/dev/null
ip route del blackhole "$VGNODE_SERVICE_RANGE" 2>/dev/null
ip route flush table "$VGNODE_HOST_SERVICE_TABLE" 2>/dev/null
while ip rule del to "$VGNODE_SERVICE_RANGE" iif lo table "$VGNODE_HOST_SERVICE_TABLE" 2>/dev/null; do :; done
# kube-proxy's and the kubelet's chains (KUBE-*), the portmap plugin's (CNI-*) and ours.
for cmd in iptables ip6tables; do
  command -v "$cmd" >/dev/null || continue
  for table in filter nat mangle raw; do
    rules="$("$cmd-save" -t "$table" 2>/dev/null)" || continue
    # Jumps from the built-in chains first, then flush and delete the chains themselves.
    grep -E '^-A (PREROUTING|INPUT|FORWARD|OUTPUT|POSTROUTING) .*-j (KUBE-|CNI-|VIRTGATE-NODE-)' <<<"$rules" | sed 's/^-A/-D/' | while read -r rule; do
      eval "$cmd -t $table $rule" 2>/dev/null
    done
    chains="$(grep -oE '^:(KUBE-|CNI-|VIRTGATE-NODE-)[^ ]+' <<<"$rules" | cut -c2-)"
    for chain in $chains; do "$cmd" -t "$table" -F "$chain" 2>/dev/null; done
    for chain in $chains; do "$cmd" -t "$table" -X "$chain" 2>/dev/null; done
  done
done

# 5. Pod logs the kubelet writes outside its root directory.
rm -rf /var/log/pods/"$VGNODE_NAMESPACE_PREFIX"* /var/log/containers/*_"$VGNODE_NAMESPACE_PREFIX"*_* 2>/dev/null

# 6. Kernel settings the kubelet changed, back to what they were before the first start.
bash "$(dirname "${BASH_SOURCE[0]}")/restore-sysctls.sh" "$VGNODE_SYSCTL_BACKUP"

# 7. The directory, never crossing into a mount that is somehow still there.
rm -rf --one-file-system "$VGNODE_ROOT" 2>/dev/null
exit 0
