/**
 * An HTTP client in a process of its own, for benches whose server runs in the bench's process
 * (aggregator-synthetic.ts): it times whole GETs (first byte sent to last byte read) and counts
 * the bytes without keeping them, as Prometheus or `curl -o /dev/null` would. Reading a 35 MB
 * body through `fetch` in the server's own process measured the client: 500–1,000 ms per read
 * at 100,000 nodes, where curl read the same body from the same server in 14–21 ms.
 *
 * Protocol: one JSON request per line on stdin ({url, runs, warmup}), one JSON answer per line on
 * stdout ({durations, bytes} or {error}).
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export interface Timed {
  /** Milliseconds per measured run. */
  durations: number[];
  /** Body bytes of the last run. */
  bytes: number;
}

export interface HttpReader {
  time(url: string, runs: number, warmup?: number): Promise<Timed>;
  close(): void;
}

/** Starts the reader process (plain Node, no NODE_OPTIONS of the server's). */
export function startHttpReader(): HttpReader {
  const { NODE_OPTIONS: _serverOptions, ...env } = process.env;
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--serve'], { stdio: ['pipe', 'pipe', 'inherit'], env });
  const answers = createInterface({ input: child.stdout });
  const waiting: Array<{ resolve: (timed: Timed) => void; reject: (error: Error) => void }> = [];
  answers.on('line', (line) => {
    const answer = JSON.parse(line) as Timed | { error: string };
    const next = waiting.shift();
    if (!next) return;
    if ('error' in answer) next.reject(new Error(`http reader: ${answer.error}`));
    else next.resolve(answer);
  });
  child.once('exit', (code) => {
    for (const next of waiting.splice(0)) next.reject(new Error(`http reader exited with ${code}`));
  });
  return {
    time: (url, runs, warmup = 3) =>
      new Promise((resolve, reject) => {
        waiting.push({ resolve, reject });
        child.stdin.write(`${JSON.stringify({ url, runs, warmup })}\n`);
      }),
    close: () => {
      child.stdin.end();
    },
  };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function get(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (response) => {
        let bytes = 0;
        response.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
        });
        response.once('end', () => (response.statusCode === 200 ? resolve(bytes) : reject(new Error(`GET ${url}: ${response.statusCode}`))));
        response.once('error', reject);
      })
      .once('error', reject);
  });
}

async function serve(): Promise<void> {
  for await (const line of createInterface({ input: process.stdin })) {
    try {
      const { url, runs, warmup } = JSON.parse(line) as { url: string; runs: number; warmup: number };
      let bytes = 0;
      for (let i = 0; i < warmup; i += 1) bytes = await get(url);
      const durations: number[] = [];
      for (let i = 0; i < runs; i += 1) {
        const started = performance.now();
        bytes = await get(url);
        durations.push(performance.now() - started);
      }
      process.stdout.write(`${JSON.stringify({ durations, bytes })}\n`);
    } catch (error) {
      process.stdout.write(`${JSON.stringify({ error: (error as Error).message })}\n`);
    }
  }
  agent.destroy();
}

if (process.argv[2] === '--serve') await serve();
