/**
 * A fake standing in for a slow network or a slow API server: the real kube-apiserver cannot be
 * made slow on demand, so clients are pointed at this TCP proxy, which holds every chunk, in both
 * directions, for `delayMs` before passing it on. TLS passes through untouched (the server's
 * certificate has a 127.0.0.1 SAN, so the proxy's address verifies), so client certificates and
 * tokens work as they do directly.
 */
import net from 'node:net';

export class DelayingProxy {
  readonly url: string;
  /** Connections accepted so far. */
  accepted = 0;
  private delayMs = 0;
  private readonly server: net.Server;
  private readonly sockets = new Set<net.Socket>();

  private constructor(server: net.Server, port: number) {
    this.server = server;
    this.url = `https://127.0.0.1:${port}`;
  }

  static async start(target: string): Promise<DelayingProxy> {
    const upstream = new URL(target);
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (!address || typeof address !== 'object') throw new Error('proxy has no address');
    const proxy = new DelayingProxy(server, address.port);
    server.on('connection', (client) => proxy.accept(client, upstream.hostname, Number(upstream.port)));
    return proxy;
  }

  /** From now on every chunk waits this long (chunks already held keep their place in line). */
  setDelay(ms: number): void {
    this.delayMs = ms;
  }

  /** Cuts every open connection, as a network blip would. */
  resetAll(): void {
    for (const socket of this.sockets) socket.destroy();
  }

  async close(): Promise<void> {
    this.resetAll();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: net.Socket, host: string, port: number): void {
    this.accepted += 1;
    const server = net.connect(port, host);
    for (const socket of [client, server]) {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      // Either side failing ends both, as a real connection would.
      socket.on('error', () => {
        client.destroy();
        server.destroy();
      });
    }
    this.pipe(client, server);
    this.pipe(server, client);
  }

  /** Forwards `from` to `to` in order, each chunk released no earlier than `delayMs` after it came. */
  private pipe(from: net.Socket, to: net.Socket): void {
    let chain = Promise.resolve();
    let releaseAt = 0;
    const later = (work: () => void) => {
      releaseAt = Math.max(Date.now() + this.delayMs, releaseAt);
      const due = releaseAt;
      chain = chain.then(async () => {
        const wait = due - Date.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        if (!to.destroyed) work();
      });
    };
    from.on('data', (chunk: Buffer) => later(() => to.write(chunk)));
    // A closed side closes the other once what it sent before has been passed on.
    from.on('end', () => later(() => to.end()));
    from.on('close', () => later(() => to.end()));
  }
}
