import type { Logger } from 'pino';

/**
 * Resolves once the first SIGTERM or SIGINT has been handled by `stop` (whether it succeeded or
 * not): a long-running command's last step. The exit code stays 0, as Kubernetes expects of a
 * graceful stop.
 */
export function stopOnSignal(log: Logger, stop: () => Promise<void>): Promise<void> {
  return new Promise<void>((resolve) => {
    const shutdown = (signal: NodeJS.Signals) => {
      log.info({ signal }, 'stopping');
      stop().then(resolve, resolve);
    };
    process.once('SIGTERM', shutdown);
    process.once('SIGINT', shutdown);
  });
}
