#!/usr/bin/env bash
# The real node's network, kept on this machine (called by real-node.ts before any pod starts;
# the variables come from layout.ts):
#   - a bridge with the node's address; pods get addresses on it (CNI bridge + host-local, no
#     masquerade, and not the pods' gateway for anything beyond this machine: the machine's IP
#     forwarding is left as it is, off on a machine like this one); forwarding is on for packets
#     that arrive on the bridge only, so that a pod reaches a Service whose endpoint is another pod
#     (CoreDNS, the aggregator): kube-proxy's DNAT sends it back onto the bridge;
#   - blackhole routes for the whole pod and Service ranges, so a packet to a Service address that
#     kube-proxy has not programmed yet, or to a pod address that is not on the bridge, goes
#     nowhere;
#   - the host's own packets to a Service address (a test reading the aggregator through its
#     Service) are routed onto the bridge instead, by a policy rule for locally generated packets
#     only, so that kube-proxy's DNAT in OUTPUT can rewrite them; an unprogrammed one stays on
#     the bridge;
#   - counters: VIRTGATE-NODE-EGRESS (filter, first in FORWARD) drops and counts any packet from
#     the pod range that would leave through another interface; VIRTGATE-NODE-ATTEMPT (mangle,
#     PREROUTING on the bridge) counts any pod packet addressed outside the pod and Service
#     ranges. The suite asserts both stay 0.
set -euo pipefail
: "${VGNODE_BRIDGE:?}" "${VGNODE_GATEWAY:?}" "${VGNODE_POD_SUBNET:?}" "${VGNODE_POD_RANGE:?}" "${VGNODE_SERVICE_RANGE:?}" "${VGNODE_HOST_SERVICE_TABLE:?}"

prefix_len="${VGNODE_POD_SUBNET#*/}"
ip link add "$VGNODE_BRIDGE" type bridge
ip addr add "$VGNODE_GATEWAY/$prefix_len" dev "$VGNODE_BRIDGE"
ip link set "$VGNODE_BRIDGE" up
# IPv4 decides forwarding by the interface a packet arrives on: this is the bridge's own setting,
# gone with the bridge. A pod packet routed to any other interface is dropped and counted by
# VIRTGATE-NODE-EGRESS below.
sysctl -qw "net.ipv4.conf.$VGNODE_BRIDGE.forwarding=1"

ip route add blackhole "$VGNODE_POD_RANGE"
ip route add blackhole "$VGNODE_SERVICE_RANGE"
ip route add "$VGNODE_SERVICE_RANGE" dev "$VGNODE_BRIDGE" src "$VGNODE_GATEWAY" table "$VGNODE_HOST_SERVICE_TABLE"
ip rule add to "$VGNODE_SERVICE_RANGE" iif lo table "$VGNODE_HOST_SERVICE_TABLE" priority 1000

iptables -t filter -N VIRTGATE-NODE-EGRESS
iptables -t filter -A VIRTGATE-NODE-EGRESS -s "$VGNODE_POD_RANGE" ! -o "$VGNODE_BRIDGE" -m comment --comment "virtgate-node: pod egress" -j DROP
iptables -t filter -I FORWARD 1 -j VIRTGATE-NODE-EGRESS

iptables -t mangle -N VIRTGATE-NODE-ATTEMPT
iptables -t mangle -A VIRTGATE-NODE-ATTEMPT -d "$VGNODE_POD_RANGE" -j RETURN
iptables -t mangle -A VIRTGATE-NODE-ATTEMPT -d "$VGNODE_SERVICE_RANGE" -j RETURN
iptables -t mangle -A VIRTGATE-NODE-ATTEMPT -m comment --comment "virtgate-node: pod packet to an outside address"
iptables -t mangle -I PREROUTING 1 -i "$VGNODE_BRIDGE" -s "$VGNODE_POD_RANGE" -j VIRTGATE-NODE-ATTEMPT
