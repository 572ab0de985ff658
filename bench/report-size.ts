import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { evaluate } from '../core/checks/evaluate.ts';
import { DEFAULT_VHV_OPTIONS, runVirtHostValidate } from '../core/checks/families/vhv.ts';
import { DEFAULT_POLICY } from '../core/checks/policy.ts';
import { probeHost } from '../core/checks/probe-host.ts';
import type { HostFacts } from '../core/checks/registry.ts';
import type { Verdict } from '../core/checks/verdict.ts';
import { inventoryFor } from '../core/inventory/collect.ts';
import type { Inventory } from '../core/inventory/schema.ts';
import { buildReport } from '../core/report/build.ts';
import { buildHost, HOST_PROFILES } from '../test/lab/hosts/build-host.ts';
import { median } from './stats.ts';
import type { BenchRow } from './table.ts';

const STAMP = '2026-12-07T12:00:00Z';

/**
 * Bytes of `status` as the API server stores it (JSON), today and as agents before the declared
 * fields stored it: the same report plus `facts`, the raw probe facts they kept beside it.
 */
function statusBytes(verdict: Verdict, facts: HostFacts, inventory: Inventory | undefined): { now: number; withFacts: number } {
  const report = buildReport({ verdict, effective: { ready: verdict.ready, tier: verdict.tier }, facts, agentVersion: '0.1.0', taint: { policy: 'off', applied: false }, ...(inventory ? { inventory } : {}) });
  const condition = { type: 'Ready', status: verdict.ready ? 'True' : 'False', observedGeneration: 1, lastTransitionTime: STAMP, reason: 'HardwareVirtualization', message: 'the verdict, in one line' };
  const status = { ...report, conditions: [condition], observedGeneration: 1, probedAt: STAMP, lastTransitionAt: STAMP, heartbeatAt: STAMP };
  return { now: Buffer.byteLength(JSON.stringify(status)), withFacts: Buffer.byteLength(JSON.stringify({ ...status, facts })) };
}

/**
 * A NodeValidation's stored size per node: every fixture host profile (root: they are built with
 * mknod) and this machine (its virt-host-validate run and inventory included), before and after
 * the raw facts left the report.
 */
export async function reportSizeBench(log: (text: string) => void): Promise<BenchRow[]> {
  const section = 'report size (status as stored, JSON)';
  const sizes: Array<{ now: number; withFacts: number }> = [];
  const [facts, vhv] = await Promise.all([probeHost('/', { enabled: false }), runVirtHostValidate(DEFAULT_VHV_OPTIONS)]);
  const machine = statusBytes(evaluate(facts, vhv, DEFAULT_POLICY), facts, await inventoryFor('/'));
  sizes.push(machine);
  if (process.getuid?.() === 0) {
    const base = await mkdtemp(path.join(os.tmpdir(), 'virtgate-bench-report-'));
    try {
      for (const profile of HOST_PROFILES) {
        const host = await buildHost(path.join(base, profile), profile);
        const hostFacts = await probeHost(host.root, { enabled: false });
        sizes.push(statusBytes(evaluate(hostFacts, { state: 'disabled' }, DEFAULT_POLICY), hostFacts, undefined));
      }
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  } else {
    log('report size: the fixture profiles need root (mknod); this machine only');
  }
  const over = `${sizes.length === 1 ? 'this machine' : `${sizes.length - 1} fixture profiles and this machine`}`;
  return [
    { section, figure: `per node, median over ${over}`, value: median(sizes.map((s) => s.now)), unit: 'B', baseline: { label: 'with raw facts (before)', value: median(sizes.map((s) => s.withFacts)) }, ratio: 'value/baseline' },
    { section, figure: `per node, largest of ${over}`, value: Math.max(...sizes.map((s) => s.now)), unit: 'B', baseline: { label: 'with raw facts (before)', value: Math.max(...sizes.map((s) => s.withFacts)) }, ratio: 'value/baseline' },
    { section, figure: 'this machine', value: machine.now, unit: 'B', baseline: { label: 'with raw facts (before)', value: machine.withFacts }, ratio: 'value/baseline' },
  ];
}
