/**
 * The real-node tests (test/node) compute what they expect without virtgate: their truth module
 * (host-truth.ts) imports only Node.js, no test/node file imports virtgate's source except where
 * the table below says why, and every module of virtgate any of them reaches through the lab is
 * listed with its reason. None of those computes a verdict: they name things (API coordinates,
 * a pod label, the package's root), format an API error, or give the settings a recovery bound is
 * computed from. A new import fails this test until someone writes down why it does not feed an
 * expectation. Read from the source text, as a person reviewing the imports would.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../../core/package-info.ts';

const NODE_TESTS = path.join(PACKAGE_ROOT, 'test/node');
const PRODUCT = /^(core|agent|cli|aggregator|prune)\//;
const IMPORT = /(?:^|\n)\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

interface Import {
  from: string;
  to: string;
  typeOnly: boolean;
}

function importsOf(file: string): Import[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(IMPORT)].map((m) => ({ from: path.relative(PACKAGE_ROOT, file), to: m[2] ?? m[3] ?? '', typeOnly: Boolean(m[1]) }));
}

const resolve = (item: Import) => path.relative(PACKAGE_ROOT, path.resolve(PACKAGE_ROOT, path.dirname(item.from), item.to));

/** Every product module reached from test/node through relative imports of test files, with what imports it. */
function productReached(): Map<string, string[]> {
  const reached = new Map<string, string[]>();
  const seen = new Set<string>();
  const walk = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const item of importsOf(path.join(PACKAGE_ROOT, file))) {
      if (!item.to.startsWith('.')) continue;
      const target = resolve(item);
      if (PRODUCT.test(target)) reached.set(target, [...(reached.get(target) ?? []), item.from]);
      else if (target.startsWith('test/') && existsSync(path.join(PACKAGE_ROOT, target))) walk(target);
    }
  };
  for (const name of readdirSync(NODE_TESTS).filter((n) => n.endsWith('.ts'))) walk(`test/node/${name}`);
  return reached;
}

/** The only product imports a test/node file makes itself. */
const DIRECT: Record<string, string> = {};

/** Every product module the lab brings in, and why none of them feeds an expectation of the real node. */
const REACHED: Record<string, string> = {
  'core/package-info.ts': 'the package root: where the chart, the CLI and the fixtures are',
  'core/kube/names.ts': 'the API group, version and plural the lab reads NodeValidations by (test/lab/chart/cluster.ts, test/faults/survivors.ts)',
  'core/kube/api-error.ts': "formats a refused call's message (test/lab/chart/cluster.ts)",
  'core/kube/retry.ts': 'the conflict retry settings a fault recovery bound is computed from (test/faults/recovery-bounds.ts)',
  'core/settings/parsers.ts': "parses the chart's durations for the recovery bounds (test/faults/recovery-bounds.ts)",
  'aggregator/config.ts': "the aggregator's default intervals for the recovery bounds (test/faults/recovery-bounds.ts)",
  // The fixture-host builder the integration faults use, reached through the recovery bounds
  // (test/faults/fault-nodes.ts); the real node never builds a fixture host.
  'core/checks/host/device-numbers.ts': "the fixture hosts' device numbers (test/lab/hosts/), not read by a test/node expectation",
  'core/checks/verdict.ts': 'a type only (Tier) in the fixture-host profiles',
};

describe('the real-node tests share nothing with virtgate to compute what they expect', () => {
  it('host-truth.ts imports only Node.js itself', () => {
    const imports = importsOf(path.join(NODE_TESTS, 'host-truth.ts'));
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.filter((item) => !item.to.startsWith('node:')).map((item) => item.to)).toEqual([]);
  });

  it('no test/node file imports virtgate source, but for the one written down with its reason', () => {
    const direct = readdirSync(NODE_TESTS)
      .filter((name) => name.endsWith('.ts'))
      .flatMap((name) => importsOf(path.join(NODE_TESTS, name)))
      .filter((item) => item.to.startsWith('.') && PRODUCT.test(resolve(item)))
      .map((item) => `${item.from} -> ${resolve(item)}`);
    expect(direct.sort()).toEqual(Object.keys(DIRECT).sort());
  });

  it('every virtgate module reached through the lab is listed with why it computes no expectation', () => {
    const reached = productReached();
    expect([...reached.keys()].sort()).toEqual(Object.keys(REACHED).sort());
    // Only a type from the verdict module, never its code.
    const verdictImports = [...readdirSync(path.join(PACKAGE_ROOT, 'test/lab/hosts'), { recursive: true })]
      .map(String)
      .filter((name) => name.endsWith('.ts'))
      .flatMap((name) => importsOf(path.join(PACKAGE_ROOT, 'test/lab/hosts', name)))
      .filter((item) => item.to.endsWith('core/checks/verdict.ts'));
    expect(verdictImports.every((item) => item.typeOnly)).toBe(true);
  });

  it('the reader sees imports as written: a value import, a type import, a multi-line import', () => {
    // The regular expression itself, on text, so a blind reader cannot pass the tests above.
    const text = "import { a } from '../../core/x.ts';\nimport type { B } from '../../agent/y.ts';\nimport {\n  c,\n  d,\n} from '../../cli/z.ts';\n";
    const found = [...text.matchAll(IMPORT)].map((m) => [m[2], Boolean(m[1])]);
    expect(found).toEqual([
      ['../../core/x.ts', false],
      ['../../agent/y.ts', true],
      ['../../cli/z.ts', false],
    ]);
  });
});
