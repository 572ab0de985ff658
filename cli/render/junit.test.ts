import { describe, expect, it } from 'vitest';
import type { GateResult } from '../../aggregator/documents/gate.ts';
import type { GateErrorDocument } from '../../aggregator/documents/gate-error.ts';
import { DOCUMENT_KINDS, typeMeta } from '../../core/documents.ts';
import { xmlProblems, xpathCount, xpathString } from '../../test/lab/support/xmllint.ts';
import { gateErrorJunit, gateJunit } from './junit.ts';

/** A gate result written by hand: one check of each status, a message that needs escaping. */
const REPORT: GateResult = {
  result: 'fail',
  exitCode: 1,
  evaluatedAt: '2026-12-02T12:00:00.000Z',
  checks: [
    { id: 'tuple.kubernetes-supported', status: 'pass', message: 'Kubernetes 1.36 is supported by KubeVirt 1.9', evidence: { kubevirtMinor: '1.9' } },
    { id: 'tuple.cdi-paired', status: 'unknown', message: 'no pairing for CDI 1.70', evidence: {} },
    { id: 'nodes.reports-fresh', status: 'warn', message: 'worker-3 has no report', evidence: { fresh: 2 } },
    { id: 'nodes.runtime', status: 'fail', message: 'worker-2 runs docker://24.0.7 & <unsupported> "runtimes"', evidence: { unsupported: ['worker-2'] } },
  ],
  versions: {
    kubernetes: { state: 'known', version: 'v1.36.3', minor: '1.36' },
    kubevirt: { state: 'known', version: 'v1.9.0', minor: '1.9' },
    cdi: { state: 'absent', reason: 'CDI is not installed' },
    dataUpdated: '2026-11-20',
  },
  readiness: {
    total: 0,
    counts: { ready: 0, emulation: 0, 'not-ready': 0, unknown: 0 },
    readyRatio: 0,
    nodes: [],
    ignored: { unnamedNodes: 0, duplicateNodes: 0, orphanReports: [], orphanReportCount: 0, unnamedReports: 0 },
  },
  hostDevices: [],
};

const EXPECTED = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="virtgate gate" tests="4" failures="1" errors="0" skipped="2">
  <testsuite name="virtgate gate" tests="4" failures="1" errors="0" skipped="2" timestamp="2026-12-02T12:00:00.000Z">
    <properties>
      <property name="result" value="fail"/>
      <property name="exitCode" value="1"/>
      <property name="kubernetes" value="v1.36.3"/>
      <property name="kubevirt" value="v1.9.0"/>
      <property name="cdi" value="absent: CDI is not installed"/>
      <property name="dataUpdated" value="2026-11-20"/>
    </properties>
    <testcase classname="virtgate.gate.tuple" name="tuple.kubernetes-supported" status="pass">
      <system-out>Kubernetes 1.36 is supported by KubeVirt 1.9
evidence: {"kubevirtMinor":"1.9"}</system-out>
    </testcase>
    <testcase classname="virtgate.gate.tuple" name="tuple.cdi-paired" status="unknown">
      <skipped message="unknown: no pairing for CDI 1.70"/>
      <system-out>no pairing for CDI 1.70
evidence: {}</system-out>
    </testcase>
    <testcase classname="virtgate.gate.nodes" name="nodes.reports-fresh" status="warn">
      <skipped message="warn: worker-3 has no report"/>
      <system-out>worker-3 has no report
evidence: {"fresh":2}</system-out>
    </testcase>
    <testcase classname="virtgate.gate.nodes" name="nodes.runtime" status="fail">
      <failure type="fail" message="worker-2 runs docker://24.0.7 &amp; &lt;unsupported&gt; &quot;runtimes&quot;"/>
      <system-out>worker-2 runs docker://24.0.7 &amp; &lt;unsupported&gt; "runtimes"
evidence: {"unsupported":["worker-2"]}</system-out>
    </testcase>
  </testsuite>
</testsuites>
`;

describe('the JUnit report of virtgate gate', () => {
  it('is the hand-written XML for a known gate result: pass plain, fail a failure, warn and unknown skipped', () => {
    expect(gateJunit(REPORT)).toBe(EXPECTED);
  });

  it('is well-formed, and a real parser (xmllint) reads back the counts and the messages', async () => {
    const xml = gateJunit(REPORT);
    expect(await xmlProblems(xml)).toBe('');
    expect(await xpathCount(xml, '/testsuites/testsuite[@name="virtgate gate"]/testcase')).toBe(REPORT.checks.length);
    expect(await xpathString(xml, '//testcase[@name="nodes.runtime"]/failure/@message')).toBe(REPORT.checks[3]?.message);
    expect(await xpathCount(xml, '//testcase/skipped')).toBe(2);
  });

  it('carries an untrusted message (control characters, a closing tag) without breaking the document', async () => {
    const hostile = 'node "x\u0007" says </system-out><injected/>\ttab\nnext';
    const xml = gateJunit({ ...REPORT, checks: [{ id: 'nodes.kernel-userland', status: 'warn', message: hostile, evidence: { raw: hostile } }] });
    expect(await xmlProblems(xml)).toBe('');
    expect(await xpathCount(xml, '//injected')).toBe(0);
    expect(await xpathString(xml, '//testcase/skipped/@message')).toBe(`warn: ${hostile.replace('\u0007', '\ufffd')}`);
  });

  it('stands for the unread cluster with one error testcase', async () => {
    const failure: GateErrorDocument = {
      ...typeMeta(DOCUMENT_KINDS.gateError),
      error: { reason: 'Forbidden', httpStatus: 403, message: 'not allowed to list nodes (HTTP 403): nodes is forbidden' },
      exitCode: 4,
    };
    const xml = gateErrorJunit(failure, new Date('2026-12-02T12:00:00Z'));
    expect(xml).toBe(`<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="virtgate gate" tests="1" failures="0" errors="1" skipped="0">
  <testsuite name="virtgate gate" tests="1" failures="0" errors="1" skipped="0" timestamp="2026-12-02T12:00:00.000Z">
    <properties>
      <property name="exitCode" value="4"/>
    </properties>
    <testcase classname="virtgate.gate.cluster" name="cluster.read" status="error">
      <error type="Forbidden" message="not allowed to list nodes (HTTP 403): nodes is forbidden"/>
      <system-out>not allowed to list nodes (HTTP 403): nodes is forbidden</system-out>
    </testcase>
  </testsuite>
</testsuites>
`);
    expect(await xmlProblems(xml)).toBe('');
  });
});
