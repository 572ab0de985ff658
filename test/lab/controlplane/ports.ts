import { readFileSync } from 'node:fs';
import net from 'node:net';

// Listening ports come from below the kernel's ephemeral range. A port inside that range can be
// taken at any moment as the local end of an outgoing connection, so a component restarted on its
// port (etcd, the API server, the controller manager) could meet "address already in use"; a CI
// run lost kube-controller-manager's restart that way.
const LISTEN_PORTS = { first: 20_000, last: 29_999 } as const;

// Ports this process has handed out: two calls in one Promise.all must not get the same one.
const handedOut = new Set<number>();
let next = LISTEN_PORTS.first + Math.floor(Math.random() * (LISTEN_PORTS.last - LISTEN_PORTS.first + 1));

function assertOutsideEphemeralRange(): void {
  const text = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8');
  const [low, high] = text.trim().split(/\s+/).map(Number);
  if (low === undefined || high === undefined || Number.isNaN(low) || Number.isNaN(high)) {
    throw new Error(`cannot read the ephemeral port range from /proc/sys/net/ipv4/ip_local_port_range: ${JSON.stringify(text)}`);
  }
  if (low <= LISTEN_PORTS.last && high >= LISTEN_PORTS.first) {
    throw new Error(
      `the kernel's ephemeral port range ${low}-${high} overlaps the test listeners' ports ${LISTEN_PORTS.first}-${LISTEN_PORTS.last}; ` +
      `set net.ipv4.ip_local_port_range to start above ${LISTEN_PORTS.last} (the Linux default is 32768 60999)`,
    );
  }
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    // The wildcard address conflicts with a socket on any local address, so a port free here is free on all.
    server.listen({ port, host: '0.0.0.0', exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** A loopback port nothing listens on, outside the kernel's ephemeral range, never handed out twice by this process. */
export async function freePort(): Promise<number> {
  assertOutsideEphemeralRange();
  const size = LISTEN_PORTS.last - LISTEN_PORTS.first + 1;
  for (let tries = 0; tries < size; tries += 1) {
    const port = next;
    next = next === LISTEN_PORTS.last ? LISTEN_PORTS.first : next + 1;
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    if (await bindable(port)) return port;
  }
  throw new Error(`no free port in ${LISTEN_PORTS.first}-${LISTEN_PORTS.last}`);
}

/** A loopback port nothing listens on (for an unreachable kubeconfig): a free one, left closed. */
export const closedPort = freePort;
