#!/usr/bin/env bash
# The three-node cluster's network, all on this machine (called by cluster.ts before any node
# starts; the variables come from layout.ts):
#   - a bridge on the host (VGCL_BRIDGE, the control plane's address) with no uplink: the nodes'
#     veths are its only ports;
#   - per node, a network namespace whose eth0 has the node's address on that bridge, and a cni0
#     bridge for its pods (their gateway). Its routes: the node network, each other node's pod
#     subnet through that node, the Service range onto cni0 (so kube-proxy's DNAT can rewrite the
#     node's own packets); no default route, so nothing addressed elsewhere leaves the node;
#   - on the host: the pod range blackholed except each node's subnet through that node, the
#     Service range through the first node (its kube-proxy DNATs and masquerades the host's
#     packets), never anything else;
#   - counters, which the suite asserts stay 0: in each node VGCL-EGRESS (filter FORWARD) drops and
#     counts any pod packet to an address outside the pod, Service and node ranges, and
#     VGCL-ATTEMPT (mangle PREROUTING on cni0) counts them before routing; on the host
#     VGCL-HOST-EGRESS (filter FORWARD) drops and counts any packet from those ranges that would
#     leave through another interface than the cluster's bridge.
set -euo pipefail
: "${VGCL_BRIDGE:?}" "${VGCL_CONTROL_PLANE_ADDRESS:?}" "${VGCL_NODE_NETWORK:?}" "${VGCL_POD_RANGE:?}" "${VGCL_SERVICE_RANGE:?}" "${VGCL_NODES:?}"

node_prefix="${VGCL_NODE_NETWORK#*/}"
ip link add "$VGCL_BRIDGE" type bridge
ip addr add "$VGCL_CONTROL_PLANE_ADDRESS/$node_prefix" dev "$VGCL_BRIDGE"
ip link set "$VGCL_BRIDGE" up

ip route add blackhole "$VGCL_POD_RANGE"
first_address=""
for spec in $VGCL_NODES; do
  IFS=, read -r _name netns veth address subnet gateway _rest <<<"$spec"
  [[ -z "$first_address" ]] && first_address="$address"
  ip netns add "$netns"
  ip link add "$veth" type veth peer name eth0 netns "$netns"
  ip link set "$veth" master "$VGCL_BRIDGE" up
  in_node=(ip netns exec "$netns")
  "${in_node[@]}" ip link set lo up
  "${in_node[@]}" ip addr add "$address/$node_prefix" dev eth0
  "${in_node[@]}" ip link set eth0 up
  "${in_node[@]}" ip link add cni0 type bridge
  "${in_node[@]}" ip addr add "$gateway/${subnet#*/}" dev cni0
  "${in_node[@]}" ip link set cni0 up
  # The node routes between its pods and the other nodes' (this namespace's setting only).
  "${in_node[@]}" sysctl -qw net.ipv4.ip_forward=1
  "${in_node[@]}" ip route add "$VGCL_SERVICE_RANGE" dev cni0 src "$gateway"
  ip route add "$subnet" via "$address"

  "${in_node[@]}" iptables -t filter -N VGCL-EGRESS
  for allowed in "$VGCL_POD_RANGE" "$VGCL_SERVICE_RANGE" "$VGCL_NODE_NETWORK"; do
    "${in_node[@]}" iptables -t filter -A VGCL-EGRESS -d "$allowed" -j RETURN
  done
  "${in_node[@]}" iptables -t filter -A VGCL-EGRESS -s "$VGCL_POD_RANGE" -m comment --comment "vgcl: pod egress" -j DROP
  "${in_node[@]}" iptables -t filter -I FORWARD 1 -j VGCL-EGRESS
  "${in_node[@]}" iptables -t mangle -N VGCL-ATTEMPT
  for allowed in "$VGCL_POD_RANGE" "$VGCL_SERVICE_RANGE" "$VGCL_NODE_NETWORK"; do
    "${in_node[@]}" iptables -t mangle -A VGCL-ATTEMPT -d "$allowed" -j RETURN
  done
  "${in_node[@]}" iptables -t mangle -A VGCL-ATTEMPT -m comment --comment "vgcl: pod packet to an outside address"
  "${in_node[@]}" iptables -t mangle -I PREROUTING 1 -i cni0 -s "$VGCL_POD_RANGE" -j VGCL-ATTEMPT
done
# Each node knows the others' pod subnets (a routed pod network, as a cloud's VPC routes would be).
for spec in $VGCL_NODES; do
  IFS=, read -r _name netns _veth _address _subnet _gateway _rest <<<"$spec"
  for other in $VGCL_NODES; do
    IFS=, read -r _oname onetns _oveth oaddress osubnet _ogateway _orest <<<"$other"
    [[ "$onetns" == "$netns" ]] && continue
    ip netns exec "$netns" ip route add "$osubnet" via "$oaddress"
  done
done
ip route add "$VGCL_SERVICE_RANGE" via "$first_address"

iptables -t filter -N VGCL-HOST-EGRESS
for source in "$VGCL_POD_RANGE" "$VGCL_NODE_NETWORK"; do
  iptables -t filter -A VGCL-HOST-EGRESS -s "$source" ! -o "$VGCL_BRIDGE" -m comment --comment "vgcl: cluster egress from the host" -j DROP
done
iptables -t filter -I FORWARD 1 -j VGCL-HOST-EGRESS
