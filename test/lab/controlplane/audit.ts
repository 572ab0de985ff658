import { open, stat } from 'node:fs/promises';

export interface AuditEvent {
  stage: string;
  verb: string;
  requestURI: string;
  user: { username: string; groups?: string[]; extra?: Record<string, string[]> };
  objectRef?: { resource?: string; subresource?: string; name?: string; namespace?: string; apiGroup?: string };
  responseStatus?: { code?: number };
  requestReceivedTimestamp: string;
  /** The request body as sent (a patch, or the whole object), where the policy logs at level Request. */
  requestObject?: unknown;
}

export const WRITE_VERBS = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

/** Reads the API server's JSON audit log from a byte offset, so a test counts only its own window. */
export class AuditLog {
  readonly file: string;

  constructor(file: string) {
    this.file = file;
  }

  /** The current end of the log: pass it to `since` later. */
  async mark(): Promise<number> {
    return (await stat(this.file).catch(() => ({ size: 0 }))).size;
  }

  async since(offset: number): Promise<AuditEvent[]> {
    const handle = await open(this.file, 'r');
    try {
      const { size } = await handle.stat();
      const buffer = Buffer.alloc(Math.max(0, size - offset));
      await handle.read(buffer, 0, buffer.length, offset);
      return buffer
        .toString('utf8')
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as AuditEvent)
        .filter((event) => event.stage === 'ResponseComplete');
    } finally {
      await handle.close();
    }
  }

  /** Completed write requests by `username` since `offset`. */
  async writesBy(username: string, offset: number): Promise<AuditEvent[]> {
    return (await this.since(offset)).filter((event) => event.user.username === username && WRITE_VERBS.has(event.verb));
  }
}
