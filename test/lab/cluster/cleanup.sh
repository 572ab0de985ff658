#!/usr/bin/env bash
# Removes everything the three-node cluster (cluster.ts) may have left on this machine, whether
# its run ended cleanly or was killed: processes, containers, mount namespaces, cgroups, network
# namespaces, the bridge, routes, iptables chains, changed kernel settings, created mount points
# and its directory. Safe to run any time and twice. The variables come from layout.ts.
set -uo pipefail
: "${VGCL_ROOT:?}" "${VGCL_BRIDGE:?}" "${VGCL_POD_RANGE:?}" "${VGCL_SERVICE_RANGE:?}" "${VGCL_NODES:?}" "${VGCL_SYSCTL_BACKUP:?}"

# 1. Processes: the nodes' kubelets, kube-proxies, containerds (and their shims, which outlive
#    them), known by name and a command line naming the cluster's directory; every process in a
#    node's cgroups; and whatever still runs in a node's network namespace.
pids_of_cluster() {
  local p comm spec netns cgroup
  for p in /proc/[0-9]*; do
    p="${p#/proc/}"
    comm="$(cat "/proc/$p/comm" 2>/dev/null)" || continue
    case "$comm" in
      kubelet|kube-proxy|containerd|containerd-shim*|unshare|nsenter) ;;
      *) continue ;;
    esac
    tr '\0' ' ' < "/proc/$p/cmdline" 2>/dev/null | grep -qF "$VGCL_ROOT/" && echo "$p"
  done
  for spec in $VGCL_NODES; do
    IFS=, read -r _name netns _veth _address _subnet _gateway _nsfile cgroup _hidden <<<"$spec"
    find /sys/fs/cgroup/*"$cgroup" -name cgroup.procs -exec cat {} + 2>/dev/null
    [[ -e "/run/netns/$netns" ]] && ip netns pids "$netns" 2>/dev/null
  done
}
for round in 1 2 3; do
  pids="$(pids_of_cluster | sort -u)"
  [[ -z "$pids" ]] && break
  # shellcheck disable=SC2086
  kill -KILL $pids 2>/dev/null
  sleep 1
done

# 2. Mounts on the host under the cluster's directory (the namespace files and their private
#    mount), deepest first. The nodes' own mounts go with their namespaces.
awk -v root="$VGCL_ROOT" '$5 == root || index($5, root "/") == 1 { print $5 }' /proc/self/mountinfo | sort -r | while read -r m; do
  umount -l "$m" 2>/dev/null
done
if [[ -f "$VGCL_ROOT/created-paths" ]]; then
  while read -r target; do [[ -n "$target" ]] && rmdir "$target" 2>/dev/null; done < "$VGCL_ROOT/created-paths"
fi

# 3. The nodes' cgroups, deepest first, in every v1 hierarchy.
for hierarchy in /sys/fs/cgroup/*/virtgate-cluster; do
  [[ -d "$hierarchy" ]] && find "$hierarchy" -depth -type d -exec rmdir {} \; 2>/dev/null
done

# 4. Network: the nodes' namespaces (their veths, bridges, routes and iptables go with them), the
#    host's bridge, routes and chain.
for spec in $VGCL_NODES; do
  IFS=, read -r _name netns veth _rest <<<"$spec"
  ip netns del "$netns" 2>/dev/null
  ip link del "$veth" 2>/dev/null
done
ip link del "$VGCL_BRIDGE" 2>/dev/null
ip route del blackhole "$VGCL_POD_RANGE" 2>/dev/null
ip route del "$VGCL_SERVICE_RANGE" 2>/dev/null
while iptables -t filter -D FORWARD -j VGCL-HOST-EGRESS 2>/dev/null; do :; done
iptables -t filter -F VGCL-HOST-EGRESS 2>/dev/null
iptables -t filter -X VGCL-HOST-EGRESS 2>/dev/null

# 5. Kernel settings the kubelets changed, back to what they were before the first start.
bash "$(dirname "${BASH_SOURCE[0]}")/../node/restore-sysctls.sh" "$VGCL_SYSCTL_BACKUP"

# 6. The directory, never crossing into a mount that is somehow still there.
rm -rf --one-file-system "$VGCL_ROOT" 2>/dev/null
exit 0
