import { readFile } from 'node:fs/promises';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort } from './ports.ts';

async function ephemeralRange(): Promise<[number, number]> {
  const [low, high] = (await readFile('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')).trim().split(/\s+/).map(Number);
  return [low!, high!];
}

describe('freePort', () => {
  it('hands out distinct ports outside the kernel ephemeral range, even to concurrent callers', async () => {
    const [low, high] = await ephemeralRange();
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    expect(new Set(ports).size).toBe(20);
    for (const port of ports) expect(port < low || port > high, `port ${port} inside ${low}-${high}`).toBe(true);
  });

  it('skips a port something already listens on', async () => {
    const first = await freePort();
    // Occupy the port that comes next in this process's sequence, then ask again.
    const occupied = first === 29_999 ? 20_000 : first + 1;
    const server = net.createServer();
    const listening = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(occupied, '127.0.0.1', () => resolve(true));
    });
    try {
      const next = await freePort();
      expect(next).not.toBe(occupied);
    } finally {
      if (listening) await new Promise((resolve) => server.close(resolve));
    }
  });
});
