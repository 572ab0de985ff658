/**
 * `virtgate gate --junit FILE`: the gate as a JUnit XML report, the format CI systems (GitLab,
 * Jenkins, GitHub Actions reporters, Azure Pipelines) show as a test run. One testsuite
 * "virtgate gate", one testcase per gate check, named by its id:
 *
 * - pass: a plain testcase;
 * - fail: a `<failure>`, so the CI counts it as a failed test;
 * - warn and unknown: a `<skipped>` whose message starts with the status. Not a failure (the
 *   gate's exit code 3 is not a fail either), but CI pages show skipped tests apart from passed
 *   ones, where a property would be invisible and the warning would read as a pass;
 *
 * and on every testcase the gate status in a `status` attribute (Jenkins' JUnit schema allows it)
 * and the message and evidence in `<system-out>`. Pure: the same result gives the same bytes.
 */
import type { GateCheck, GateResult, ObservedVersion } from '../../aggregator/documents/gate.ts';
import type { GateErrorDocument } from '../../aggregator/documents/gate-error.ts';
import { xmlAttribute, xmlText } from './xml-escape.ts';

export const JUNIT_SUITE = 'virtgate gate';

type Attributes = Record<string, string | number>;

function attributes(values: Attributes): string {
  return Object.entries(values)
    .map(([name, value]) => ` ${name}="${xmlAttribute(String(value))}"`)
    .join('');
}

interface Counts {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
}

/** The XML declaration, `<testsuites>` and its one `<testsuite>` around the given lines. */
function document(counts: Counts, timestamp: string, properties: Attributes, testcases: string[]): string {
  const totals = { tests: counts.tests, failures: counts.failures, errors: counts.errors, skipped: counts.skipped };
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attributes({ name: JUNIT_SUITE, ...totals })}>`,
    `  <testsuite${attributes({ name: JUNIT_SUITE, ...totals, timestamp })}>`,
    '    <properties>',
    ...Object.entries(properties).map(([name, value]) => `      <property${attributes({ name, value })}/>`),
    '    </properties>',
    ...testcases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

/** `tuple.kubernetes-eol` → classname `virtgate.gate.tuple`: Jenkins shows `tuple` as the class under the package `virtgate.gate`. */
function classname(id: string): string {
  return `virtgate.gate.${id.split('.')[0] ?? id}`;
}

function versionText(version: ObservedVersion): string {
  return version.state === 'known' ? version.version : `${version.state}: ${version.reason}`;
}

function testcase(check: GateCheck): string {
  const outcome =
    check.status === 'fail'
      ? [`      <failure${attributes({ type: 'fail', message: check.message })}/>`]
      : check.status === 'pass'
        ? []
        : [`      <skipped${attributes({ message: `${check.status}: ${check.message}` })}/>`];
  const output = `${check.message}\nevidence: ${JSON.stringify(check.evidence)}`;
  return [
    `    <testcase${attributes({ classname: classname(check.id), name: check.id, status: check.status })}>`,
    ...outcome,
    `      <system-out>${xmlText(output)}</system-out>`,
    '    </testcase>',
  ].join('\n');
}

/** The report of an evaluated gate. */
export function gateJunit(report: GateResult): string {
  const count = (status: GateCheck['status']) => report.checks.filter((check) => check.status === status).length;
  const counts = { tests: report.checks.length, failures: count('fail'), errors: 0, skipped: count('warn') + count('unknown') };
  const { versions } = report;
  const properties = {
    result: report.result,
    exitCode: report.exitCode,
    kubernetes: versionText(versions.kubernetes),
    kubevirt: versionText(versions.kubevirt),
    cdi: versionText(versions.cdi),
    dataUpdated: versions.dataUpdated,
  };
  return document(counts, report.evaluatedAt, properties, report.checks.map(testcase));
}

/** The check that stands for reading the cluster, when it could not be read. */
export const CLUSTER_READ_TESTCASE = 'cluster.read';

/**
 * The report when the cluster could not be read (exit 4): one testcase in `<error>`, so the CI
 * shows why no gate ran rather than a missing report file.
 */
export function gateErrorJunit(failure: GateErrorDocument, at: Date): string {
  const { reason, message } = failure.error;
  const testcases = [
    `    <testcase${attributes({ classname: classname(CLUSTER_READ_TESTCASE), name: CLUSTER_READ_TESTCASE, status: 'error' })}>`,
    `      <error${attributes({ type: reason, message })}/>`,
    `      <system-out>${xmlText(message)}</system-out>`,
    '    </testcase>',
  ];
  return document({ tests: 1, failures: 0, errors: 1, skipped: 0 }, at.toISOString(), { exitCode: failure.exitCode }, [testcases.join('\n')]);
}
