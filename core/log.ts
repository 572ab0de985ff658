import { pino, type Logger } from 'pino';

/** JSON logs on stdout, one line per decision; `bindings` (e.g. the node name) go on every line. */
export function createLogger(level: string, bindings: Record<string, string>): Logger {
  return pino({ level, base: bindings, timestamp: pino.stdTimeFunctions.isoTime });
}
