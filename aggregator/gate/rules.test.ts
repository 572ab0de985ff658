import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../core/package-info.ts';
import { GATE_CHECK_IDS, TUPLE_CHECK_IDS } from '../documents/gate-check-ids.ts';
import { healthyCluster, NOW } from '../../test/lab/aggregator/cluster-fixtures.ts';
import { DEFAULT_GATE_CONFIG } from '../model/config.ts';
import { DEFAULT_VERSIONS_FILE } from '../versions/load.ts';
import { parseVersionData } from '../versions/parse.ts';
import { gate } from './gate.ts';
import { CLUSTER_RULES, GATE_CHECK_IDS_FILE, gateCheckIdsModule, TUPLE_RULES } from './rules.ts';
import { evaluateTuple } from './tuple.ts';

const read = (file: string) => readFileSync(path.join(PACKAGE_ROOT, file), 'utf8');

describe('the gate rule registry', () => {
  it('is the source of the published check ids (the generated file is up to date)', () => {
    expect(read(GATE_CHECK_IDS_FILE), `${GATE_CHECK_IDS_FILE} is out of date: run \`npm run generate:gate-ids\` and commit the result`).toBe(gateCheckIdsModule());
  });

  it('gives each rule one id, with the version rules first', () => {
    const ids = [...TUPLE_RULES, ...CLUSTER_RULES].map((rule) => rule.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.slice(0, TUPLE_CHECK_IDS.length).every((id) => id.startsWith('tuple.'))).toBe(true);
    expect(ids.slice(TUPLE_CHECK_IDS.length).some((id) => id.startsWith('tuple.'))).toBe(false);
  });

  it('is what the gate and `virtgate tuple` run, in its order', () => {
    const data = parseVersionData(readFileSync(DEFAULT_VERSIONS_FILE, 'utf8'), 'versions.yaml');
    const result = gate(healthyCluster(), data, DEFAULT_GATE_CONFIG, NOW);
    expect(result.checks.map((check) => check.id)).toEqual([...TUPLE_RULES, ...CLUSTER_RULES].map((rule) => rule.id));
    const tuple = evaluateTuple(result.versions, data, DEFAULT_GATE_CONFIG, NOW);
    expect(tuple.checks.map((check) => check.id)).toEqual(TUPLE_RULES.map((rule) => rule.id));
  });

  it('has a row in docs/gate.md for each rule, in the same order', () => {
    const documented = [...read('docs/gate.md').matchAll(/^\| `((?:tuple|kubevirt|nodes|cluster)\.[a-z-]+)` \|/gm)].map((match) => match[1]);
    expect(documented).toEqual([...GATE_CHECK_IDS]);
  });
});
