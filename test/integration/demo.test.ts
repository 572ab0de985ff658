/**
 * Smoke test of `npm run demo`: `node demo/main.ts` as a real process (it starts its own control
 * plane, not the shared one). It comes up, its page and API answer with the demo's nodes, the CLI
 * command it prints works, and on SIGINT it exits 0 having stopped every process it started
 * (checked by the pids it prints, so no other test's processes are touched) and removed its
 * temp directory.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { access } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import type { Inventory } from '../../core/inventory/schema.ts';
import { PACKAGE_ROOT } from '../../core/package-info.ts';
import { DEMO_NODES } from '../../demo/nodes.ts';
import { EXPECTED_INVENTORIES } from '../lab/hosts/expected-inventories.ts';
import { waitFor } from '../lab/support/wait.ts';

let child: ChildProcess | undefined;
let output = '';
let exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }> | undefined;

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
};

function startDemo(): { demo: ChildProcess; exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }> } {
  const demo = spawn(process.execPath, [path.join(PACKAGE_ROOT, 'demo/main.ts')], { cwd: PACKAGE_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  demo.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  demo.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => demo.once('exit', (code, signal) => resolve({ code, signal })));
  child = demo;
  exited = exit;
  return { demo, exit };
}

afterAll(async () => {
  // Only when a test failed half-way: SIGTERM lets the demo clean up; its watchdog covers a SIGKILL.
  if (child && child.exitCode === null && child.signalCode === null) {
    child.kill('SIGTERM');
    const timer = setTimeout(() => child?.kill('SIGKILL'), 30_000);
    await exited;
    clearTimeout(timer);
  }
});

describe('npm run demo', () => {
  it('starts, serves the page and the demo nodes, prints working commands, and stops cleanly on SIGINT', async () => {
    const { demo, exit: demoExit } = startDemo();
    const url = await Promise.race([
      waitFor('the demo to print its page URL', async () => /Page:\s+(http:\/\/127\.0\.0\.1:\d+\/)/.exec(output)?.[1], 120_000, 250),
      demoExit.then(({ code }): never => {
        throw new Error(`the demo exited with ${code} before it was up:\n${output}`);
      }),
    ]);
    await waitFor('the rest of the banner', async () => (output.includes('Press Ctrl-C') ? true : undefined));

    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('<html');

    const nodes = (await (await fetch(`${url}api/v1/nodes`)).json()) as { nodes: Array<{ name: string; state: string; tier: string | null; inventory: Inventory | null }> };
    const states = Object.fromEntries(nodes.nodes.map((node) => [node.name, `${node.state}/${node.tier}`]));
    expect(Object.keys(states).sort()).toEqual(DEMO_NODES.map((node) => node.name).sort());
    expect(states).toMatchObject({
      'demo-intel': 'ready/hardware',
      'demo-amd': 'ready/hardware',
      'demo-emulation': 'not-ready/emulation',
      'demo-none': 'not-ready/none',
    });
    // Each node's hardware is its fixture host's (its agent reads it under its --host-root), not this machine's.
    expect(Object.fromEntries(nodes.nodes.map((node) => [node.name, node.inventory]))).toEqual(
      Object.fromEntries(DEMO_NODES.map((node) => [node.name, EXPECTED_INVENTORIES[node.profile]])),
    );

    // The commands it prints use its kubeconfig; the virtgate one runs from this checkout.
    const kubeconfig = /export KUBECONFIG=(\S+)/.exec(output)?.[1] ?? '';
    expect(output).toContain('kubectl get nodes -L virtgate.io/ready,virtgate.io/tier');
    expect(output).toContain('kubectl get nodevalidations');
    const gate = await execa(process.execPath, [path.join(PACKAGE_ROOT, 'cli/main.ts'), 'gate', '--kubeconfig', kubeconfig, '--calendar-date', '2026-12-02'], { reject: false });
    expect(gate.stdout).toContain('Nodes: 5 (ready 3, emulation 0, not-ready 2, unknown 0)');
    expect([0, 3]).toContain(gate.exitCode);

    const pids = Object.fromEntries(
      (/^pids:\s+(.+)$/m.exec(output)?.[1] ?? '').split(' ').map((pair) => {
        const [name, pid] = pair.split('=');
        return [name ?? '', Number(pid)];
      }),
    );
    expect(Object.keys(pids).sort()).toEqual(['aggregator', 'etcd', 'kube-apiserver', ...DEMO_NODES.map((node) => `agent-${node.name}`)].sort());
    for (const [name, pid] of Object.entries(pids)) expect(alive(pid), `${name} (${pid}) runs`).toBe(true);

    demo.kill('SIGINT');
    const exit = await Promise.race([
      demoExit,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`the demo did not exit within 60 s of SIGINT:\n${output}`)), 60_000)),
    ]);
    expect(exit, output).toEqual({ code: 0, signal: null });
    for (const [name, pid] of Object.entries(pids)) expect(alive(pid), `${name} (${pid}) is gone`).toBe(false);
    await expect(access(path.dirname(kubeconfig))).rejects.toThrow(/ENOENT/);
    expect(output).toContain('Stopped:');
  });
});
