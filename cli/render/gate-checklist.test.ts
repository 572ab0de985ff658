import { describe, expect, it } from 'vitest';
import { gate } from '../../aggregator/gate/gate.ts';
import { GATE_CHECK_IDS } from '../../aggregator/documents/gate.ts';
import { DEFAULT_GATE_CONFIG } from '../../aggregator/model/config.ts';
import { healthyCluster, NOW, rawNode, rawReport } from '../../test/lab/aggregator/cluster-fixtures.ts';
import { VERSION_DATA } from '../../test/lab/aggregator/gate-source.ts';
import { oneLine, renderChecklist } from './gate-checklist.ts';

describe('renderChecklist', () => {
  it('lists every check, the result and the exit code', () => {
    const text = renderChecklist(gate(healthyCluster(), VERSION_DATA, DEFAULT_GATE_CONFIG, NOW));
    expect(text).toMatch(/^virtgate gate: Kubernetes v1\.36\.3, KubeVirt v1\.9\.0, CDI v1\.66\.0 on 2026-12-02T12:00:00\.000Z \(version data of 2026-12-02\)\n/);
    expect(text).toMatch(/^ {2}PASS {5}tuple\.kubernetes-supported +Kubernetes 1\.36 is supported by KubeVirt 1\.9/m);
    expect(text.match(/^ {2}(PASS|WARN|FAIL|UNKNOWN) /gm)).toHaveLength(GATE_CHECK_IDS.length);
    expect(text).toContain('Nodes: 3 (ready 3, emulation 0, not-ready 0, unknown 0)');
    expect(text.endsWith('Result: PASS (exit 0)\n')).toBe(true);
  });

  it('names the nodes that are not ready, worst first, capped, and colours through the painter', () => {
    const names = Array.from({ length: 12 }, (_, i) => `node-${String(i).padStart(2, '0')}`);
    const snapshot = healthyCluster({ nodes: names.map((name) => rawNode(name)), nodeValidations: names.slice(0, 3).map((name) => rawReport(name, { ready: false })) });
    const text = renderChecklist(gate(snapshot, VERSION_DATA, DEFAULT_GATE_CONFIG, NOW), (status, word) => `[${status}]${word}`);
    expect(text).toMatch(/^ {2}not-ready {2}node-00 {2}not ready \(failing: dev\.kvm, dev\.tun\)$/m);
    expect(text).toMatch(/^ {2}unknown {4}node-03 {2}no NodeValidation report/m);
    expect(text).toContain('  … and 2 more (--json lists every node)');
    expect(text).toContain('Result: [fail]FAIL (exit 1)');
  });

  it('keeps hostile text on one line and strips terminal control sequences', () => {
    expect(oneLine('a\nb\r\u001b[2Jc\u009bd')).toBe('a b [2Jc d');
    const snapshot = healthyCluster({ serverGitVersion: 'v1.36.3' });
    const report = gate(snapshot, VERSION_DATA, DEFAULT_GATE_CONFIG, NOW);
    const [first] = report.checks;
    if (first) first.message = 'line one\nRESULT: PASS (exit 0)';
    expect(renderChecklist(report)).not.toMatch(/^RESULT: PASS/m);
  });
});
