import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * Moves kept-alive clients off a stopping aggregator. A Service sends new connections to other
 * pods once every node's kube-proxy has dropped this one (the chart's preStop sleep waits for
 * that), but a client that keeps its connection alive stays here until the server closes it, and
 * a request it sends as the server closes an idle connection fails. While draining, every
 * response asks its client to close (`Connection: close`), so a client that keeps reading
 * reconnects, through the Service, to another pod; the drain ends when no connection is open, or
 * at its bound.
 */
export class ConnectionDrain {
  private readonly open = new Set<Socket>();
  private draining = false;
  private readonly closed: Array<() => void> = [];

  constructor(app: FastifyInstance) {
    app.server.on('connection', (socket: Socket) => {
      this.open.add(socket);
      socket.once('close', () => {
        this.open.delete(socket);
        if (this.open.size === 0) for (const resolve of this.closed.splice(0)) resolve();
      });
    });
    app.addHook('onSend', async (_request, reply, payload) => {
      if (this.draining) reply.header('connection', 'close');
      return payload;
    });
  }

  /** Connections open now. */
  get openConnections(): number {
    return this.open.size;
  }

  /**
   * Starts draining and resolves once every connection has closed, or after `seconds`, with the
   * number still open (idle clients that sent nothing since; the server's close ends those).
   */
  async drain(seconds: number): Promise<{ leftOpen: number }> {
    this.draining = true;
    if (this.open.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        this.closed.push(resolve);
        timer = setTimeout(resolve, seconds * 1000);
      });
      clearTimeout(timer);
    }
    return { leftOpen: this.open.size };
  }
}
