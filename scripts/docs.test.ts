/**
 * The docs' exit-code tables, synopses and permission tables are the commands' own definitions,
 * and the chart's RBAC, rendered by the real helm, grants exactly the permissions the code says
 * each program needs.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { PACKAGE_ROOT } from '../core/package-info.ts';
import { COMMAND_EXITS, COMMAND_NAMES } from '../cli/exit-codes.ts';
import { type ClusterProgram, PERMISSIONS, type PermissionRule, type ProgramPermissions } from '../cli/permissions.ts';
import { EXIT } from '../cli/usage-error.ts';
import { findManifest, renderChart } from '../test/lab/chart/helm.ts';
import { locateBinaries } from '../test/lab/controlplane/binaries.ts';
import { COMMAND_BUILDERS, GENERATED_DOCS, regenerate, regionsOf, synopsis, visibleOptions } from './docs.ts';

const read = (file: string) => readFileSync(path.join(PACKAGE_ROOT, file), 'utf8');

describe('the generated regions of the docs', () => {
  it.each(GENERATED_DOCS.map((file) => [file]))('%s is what the definitions generate', (file) => {
    const text = read(file);
    expect(text, `${file} is out of date: run \`npm run generate:docs\` and commit the result`).toBe(regenerate(text));
  });

  it('cover what the docs state about each command', () => {
    expect(regionsOf(read('README.md'))).toEqual(['synopsis check', 'exit-codes check', 'exit-codes check gate tuple prune canary explain']);
    expect(regionsOf(read('docs/aggregator.md'))).toEqual(['synopsis aggregator', 'permissions aggregator', 'synopsis gate', 'exit-codes gate', 'permissions gate']);
    expect(regionsOf(read('docs/canary.md'))).toEqual(['synopsis canary', 'exit-codes canary', 'permissions canary']);
    expect(regionsOf(read('docs/gate.md'))).toEqual(['exit-codes gate tuple', 'synopsis tuple']);
    expect(regionsOf(read('docs/install.md'))).toEqual(['synopsis prune', 'exit-codes prune', 'permissions prune']);
    expect(regionsOf(read('docs/check.md'))).toEqual(['exit-codes check', 'permissions check']);
    expect(regionsOf(read('docs/explain.md'))).toEqual(['synopsis explain', 'exit-codes explain', 'permissions explain']);
    expect(regionsOf(read('docs/security.md'))).toEqual(['permissions agent', 'permissions canary']);
  });

  it('rewrite only the text between the markers, and refuse a region without its end', () => {
    const text = 'a\n<!-- generated:exit-codes prune -->\nold\n<!-- /generated:exit-codes -->\nb';
    const out = regenerate(text);
    expect(out.startsWith('a\n<!-- generated:exit-codes prune -->\n| exit | `virtgate prune` |')).toBe(true);
    expect(out.endsWith('\n<!-- /generated:exit-codes -->\nb')).toBe(true);
    expect(() => regenerate('<!-- generated:exit-codes prune -->\nno end')).toThrow(/has no/);
    expect(() => regenerate('<!-- generated:exit-codes nosuch -->\n<!-- /generated:exit-codes -->')).toThrow(/unknown command nosuch/);
  });

  it("docs/check.md's option table has a row for every flag check's help lists", () => {
    const rows = read('docs/check.md').split('\n').filter((line) => line.startsWith('| `--'));
    for (const option of visibleOptions(COMMAND_BUILDERS.check())) expect(rows.some((row) => row.startsWith(`| \`${option.long}`)), option.long).toBe(true);
  });

  it('a synopsis names every flag help lists, and no hidden one', () => {
    for (const name of COMMAND_NAMES) {
      const text = synopsis(name);
      for (const option of visibleOptions(COMMAND_BUILDERS[name]())) expect(text, name).toContain(option.long);
    }
    expect(synopsis('gate')).not.toContain('--now');
    expect(synopsis('tuple')).not.toMatch(/--date\b/);
    expect(synopsis('check')).not.toContain('--device-numbers');
    // A mandatory flag is written without brackets.
    expect(synopsis('tuple')).toMatch(/^virtgate tuple --kubevirt <version> --kubernetes <version> \[--cdi <version>\]/m);
  });
});

describe('the exit codes each command declares', () => {
  it('are the codes the program really uses, each meaning written once', () => {
    // Independent of the table: which commands can fail to read the cluster, and which have a warn result.
    const usesCluster = new Set(['gate', 'prune', 'check', 'canary', 'explain']);
    const hasWarn = new Set(['gate', 'tuple']);
    for (const name of COMMAND_NAMES) {
      const codes = COMMAND_EXITS[name].map((entry) => entry.code);
      expect(new Set(codes).size, name).toBe(codes.length);
      expect(codes, name).toContain(EXIT.usage);
      expect(codes.includes(EXIT.cluster), name).toBe(usesCluster.has(name));
      expect(codes.includes(EXIT.warn), name).toBe(hasWarn.has(name));
    }
  });
});

/** (group, resource, verb) triples of a set of rules, sorted, to compare rule sets written in different shapes. */
function triples(rules: readonly PermissionRule[]): string[] {
  return rules.flatMap((rule) => rule.resources.flatMap((resource) => rule.verbs.map((verb) => `${rule.group}/${resource}:${verb}`))).sort();
}

interface RenderedRole {
  rules: { apiGroups: string[]; resources: string[]; verbs: string[] }[];
}

const granted = (role: RenderedRole): PermissionRule[] => role.rules.flatMap((rule) => rule.apiGroups.map((group) => ({ group, resources: rule.resources, verbs: rule.verbs })));

/** A namespace the code names by its chart value (`<canary.namespace>`): that value's default in values.yaml. */
function chartNamespace(declared: string): string {
  const value = /^<([A-Za-z.]+)>$/.exec(declared)?.[1];
  if (!value) return declared;
  const found = value.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], parse(read('charts/virtgate/values.yaml')));
  if (typeof found !== 'string') throw new Error(`values.yaml has no string ${value}`);
  return found;
}

describe('the chart grants each program exactly the permissions its code declares (real helm)', async () => {
  const binDir = await locateBinaries();
  // The canary's roles exist only with canary.enabled (off by default).
  const objects = await renderChart(binDir, ['--set', 'canary.enabled=true']);

  // `check --node` and `explain` are run by a person with their own rights: the chart grants them nothing.
  const grantedByChart = Object.keys(PERMISSIONS).filter((program) => (PERMISSIONS[program as ClusterProgram] as ProgramPermissions).clusterRole !== undefined);
  it('covers every program but check', () => {
    expect(Object.keys(PERMISSIONS).filter((program) => !grantedByChart.includes(program))).toEqual(['check', 'explain']);
  });

  it.each(grantedByChart.map((program) => [program as ClusterProgram]))('%s', async (program) => {
    const declared = PERMISSIONS[program] as ProgramPermissions;
    const role = findManifest<RenderedRole>(objects, 'ClusterRole', `virtgate-${declared.clusterRole}`);
    expect(triples(granted(role))).toEqual(triples(declared.rules));
    if (declared.namespaced) {
      const namespaced = findManifest<RenderedRole & { metadata: { namespace?: string } }>(objects, 'Role', `virtgate-${declared.namespaced.role}`);
      expect(namespaced.metadata.namespace).toBe(chartNamespace(declared.namespaced.namespace));
      expect(triples(granted(namespaced))).toEqual(triples(declared.namespaced.rules));
    }
    if (declared.withValue) {
      const withValue = await renderChart(binDir, ['--set', declared.withValue.set]);
      const widened = findManifest<RenderedRole>(withValue, 'ClusterRole', `virtgate-${declared.clusterRole}`);
      expect(triples(granted(widened))).toEqual(triples([...declared.rules, ...declared.withValue.rules]));
    }
  });
});
