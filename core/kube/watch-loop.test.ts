import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { watchPath } from './watch.ts';
import { type OpenWatch, WatchLoop, type WatchLoopOptions } from './watch-loop.ts';

/**
 * The loop against a real HTTP server speaking the WATCH protocol (newline-delimited JSON events
 * on a chunked response), reached through client-node's Watch as in production. Each request is
 * answered by the next step of a script, so a test can close streams, send 410 or 500, or go
 * silent — what a real API server does only at moments a test cannot choose.
 */
type Step = (response: ServerResponse, request: URL) => void;

const event = (type: string, object: unknown) => `${JSON.stringify({ type, object })}\n`;
const node = (name: string, resourceVersion: string) => ({ kind: 'Node', metadata: { name, resourceVersion } });

/** Sends events, then ends the stream (the server's watch timeout). */
const stream = (...lines: string[]): Step => (response) => {
  response.writeHead(200, { 'content-type': 'application/json' });
  for (const line of lines) response.write(line);
  setTimeout(() => response.end(), 20);
};
/** Sends events, then stays open without a byte more. */
const silent = (...lines: string[]): Step => (response) => {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.flushHeaders();
  for (const line of lines) response.write(line);
};
const status = (code: number): Step => (response) => {
  response.writeHead(code, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ kind: 'Status', code, message: `scripted ${code}` }));
};

interface Lab {
  requests: URL[];
  open: OpenWatch;
  close(): Promise<void>;
}

const labs: Lab[] = [];
const loops: WatchLoop[] = [];

async function lab(script: Step[], last: Step = silent()): Promise<Lab> {
  const requests: URL[] = [];
  const open = new Set<ServerResponse>();
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    requests.push(url);
    open.add(response);
    response.on('close', () => open.delete(response));
    (script.shift() ?? last)(response, url);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'lab', server: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, skipTLSVerify: true }],
    users: [{ name: 'lab' }],
    contexts: [{ name: 'lab', cluster: 'lab', user: 'lab' }],
    currentContext: 'lab',
  });
  const result: Lab = {
    requests,
    open: watchPath(kc, '/api/v1/nodes', { inactivityMs: 60_000 }),
    close: async () => {
      for (const response of open) response.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  labs.push(result);
  return result;
}

function loop(options: Omit<WatchLoopOptions, 'log'>): WatchLoop {
  const watchLoop = new WatchLoop({ log: pino({ level: 'silent' }), ...options });
  loops.push(watchLoop);
  watchLoop.start();
  return watchLoop;
}

async function until(what: string, condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const fast = { watchTimeoutSeconds: 60, jitter: 0.2, staleAfterMs: 5000, backoff: { baseMs: 100, maxMs: 200 } };

afterEach(async () => {
  await Promise.all(loops.splice(0).map((watchLoop) => watchLoop.stop()));
  await Promise.all(labs.splice(0).map((server) => server.close()));
});

describe('WatchLoop', () => {
  it('without a relist, starts every watch without a resourceVersion, with bookmarks and a jittered timeout', async () => {
    const server = await lab([stream(event('ADDED', node('a', '5')), event('BOOKMARK', node('', '6')))]);
    const seen: string[] = [];
    loop({ open: server.open, onEvent: (type, object) => seen.push(`${type} ${(object as { metadata: { name: string } }).metadata.name}`), timing: fast, random: () => 0.5 });
    await until('a second watch', () => server.requests.length >= 2);
    expect(seen).toEqual(['ADDED a']);
    for (const request of server.requests) {
      expect(request.searchParams.get('watch')).toBe('true');
      expect(request.searchParams.get('allowWatchBookmarks')).toBe('true');
      expect(request.searchParams.has('resourceVersion')).toBe(false);
      expect(request.searchParams.get('timeoutSeconds')).toBe('54');
    }
  });

  it('with a relist, lists once, then resumes each watch from the last resourceVersion seen (a bookmark counts)', async () => {
    const server = await lab([stream(event('MODIFIED', node('a', '11')), event('BOOKMARK', node('', '15')))]);
    let lists = 0;
    loop({ open: server.open, relist: async () => `${(lists += 1) * 10}`, onEvent: () => undefined, timing: fast });
    await until('a resumed watch', () => server.requests.length >= 2);
    expect(lists).toBe(1);
    expect(server.requests.map((request) => request.searchParams.get('resourceVersion'))).toEqual(['10', '15']);
  });

  it('relists on a 410 Gone error event and watches from the new list', async () => {
    const server = await lab([stream(event('ERROR', { kind: 'Status', code: 410, message: 'too old resource version' }))]);
    let lists = 0;
    loop({ open: server.open, relist: async () => `${(lists += 1) * 100}`, onEvent: () => undefined, timing: fast });
    await until('a watch after the relist', () => server.requests.length >= 2);
    expect(lists).toBe(2);
    expect(server.requests.map((request) => request.searchParams.get('resourceVersion'))).toEqual(['100', '200']);
  });

  it('reports a refused watch, backs off, and resumes without a relist once the server accepts again', async () => {
    const server = await lab([silent(event('ADDED', node('a', '7'))), status(500)]);
    const failures: string[] = [];
    let watching = 0;
    let lists = 0;
    let listsWhenResumed = 0;
    const watchLoop = loop({
      open: server.open,
      relist: async () => `${(lists += 1)}`,
      onEvent: () => undefined,
      onWatching: () => {
        watching += 1;
        // Read here: the resumed watch is silent too and will go stale (and relist) in its turn.
        if (watching === 2) listsWhenResumed = lists;
      },
      onFailure: (message) => failures.push(message),
      timing: { ...fast, staleAfterMs: 300 },
    });
    await until('the silent watch to go stale, the refused one to fail and a third to be accepted', () => server.requests.length >= 3 && watching >= 2);
    expect(failures[0]).toBe('the watch went silent; relisting');
    expect(failures[1]).toMatch(/500/);
    // Stale relists; the 500 does not: the third watch resumes from the second list.
    expect(listsWhenResumed).toBe(2);
    expect(server.requests.slice(0, 3).map((request) => request.searchParams.get('resourceVersion'))).toEqual(['1', '2', '2']);
    expect(watchLoop.lastEventAt).not.toBeNull();
  });

  it('backs off when the server closes every watch at once, instead of looping', async () => {
    const server = await lab([], stream());
    loop({ open: server.open, onEvent: () => undefined, timing: { ...fast, backoff: { baseMs: 400, maxMs: 400 } }, random: () => 0.99 });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    // Without the guard this would be hundreds of requests a second; with it, one per ~400 ms.
    expect(server.requests.length).toBeGreaterThanOrEqual(2);
    expect(server.requests.length).toBeLessThanOrEqual(4);
  });

  it('stops: aborts the open watch and connects no more', async () => {
    const server = await lab([]);
    const watchLoop = loop({ open: server.open, onEvent: () => undefined, timing: fast });
    await until('the first watch', () => server.requests.length === 1);
    await watchLoop.stop();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(server.requests).toHaveLength(1);
  });
});
