import net from 'node:net';

/** A free loopback port, found by letting the kernel pick one. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** A loopback port nothing listens on (for an unreachable kubeconfig): a free one, left closed. */
export const closedPort = freePort;
