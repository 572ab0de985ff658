import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_VERSIONS_FILE } from './load.ts';
import { parseVersionData, VersionDataError } from './parse.ts';

const shipped = readFileSync(DEFAULT_VERSIONS_FILE, 'utf8');

const minimal = `
schemaVersion: 1
updated: "2026-12-02"
kubevirtKubernetes:
  - { kubevirt: "1.9", kubernetes: ["1.34", "1.35", "1.36"] }
cdiPairing: []
kubernetesEol:
  - { kubernetes: "1.36", eol: "2027-06-28", confirmed: false }
`;

function problem(text: string): string {
  try {
    parseVersionData(text, 'mounted/versions.yaml');
  } catch (error) {
    expect(error).toBeInstanceOf(VersionDataError);
    return (error as Error).message;
  }
  throw new Error('expected the data to be rejected');
}

describe('parseVersionData', () => {
  it('reads the shipped data file with the facts it must carry', () => {
    const data = parseVersionData(shipped, 'versions.yaml');
    expect(data.kubevirtKubernetes.map((row) => row.kubevirt)).toEqual(['1.9', '1.8', '1.7', '1.6', '1.5', '1.4', '1.3', '1.2', '1.1', '1.0']);
    expect(data.kubevirtKubernetes.find((row) => row.kubevirt === '1.9')?.kubernetes).toEqual(['1.34', '1.35', '1.36']);
    expect(data.kubevirtKubernetes.find((row) => row.kubevirt === '1.0')?.kubernetes).toEqual(['1.25', '1.26', '1.27']);
    expect(data.cdiPairing.map((row) => `${row.kubevirt}=${row.cdi}`)).toEqual(['1.9=1.66', '1.8=1.65', '1.7=1.64', '1.6=1.63', '1.5=1.62']);
    expect(data.cdiPairing[0]?.note).toMatch(/planned/);
    const eol = Object.fromEntries(data.kubernetesEol.map((row) => [row.kubernetes, row]));
    expect(eol['1.34']).toMatchObject({ eol: '2026-10-27', confirmed: true });
    expect(eol['1.35']).toMatchObject({ eol: '2027-02-28', confirmed: false });
    expect(eol['1.36']).toMatchObject({ eol: '2027-06-28', confirmed: false });
    expect(eol['1.37']).toMatchObject({ eol: '2027-10-28', confirmed: false });
    expect(eol['1.33']).toMatchObject({ eol: '2026-06-28', confirmed: true });
    expect(eol['1.25']).toMatchObject({ eol: '2023-10-28', confirmed: true });
    expect(Object.keys(eol)).toHaveLength(13);
  });

  it('accepts a minimal replacement file', () => {
    expect(parseVersionData(minimal, 'x').updated).toBe('2026-12-02');
  });

  it.each([
    ['not YAML', 'updated: [unclosed', /^mounted\/versions\.yaml: not valid YAML: /],
    ['an empty file', '', /^mounted\/versions\.yaml: the file is empty$/],
    ['a list instead of a map', '- 1\n', /^mounted\/versions\.yaml: Invalid input: expected object/],
    ['an unquoted minor that YAML reads as a number', minimal.replace('kubevirt: "1.9"', 'kubevirt: 1.10'), /kubevirtKubernetes\[0\]\.kubevirt: /],
    ['a day that does not exist', minimal.replace('2027-06-28', '2027-02-30'), /kubernetesEol\[0\]\.eol: expected a date YYYY-MM-DD/],
    ['an unknown key (a typo)', `${minimal}kubernetesEOL: []\n`, /unrecognized key.*kubernetesEOL/i],
    ['a missing section', minimal.replace(/kubernetesEol:[\s\S]*$/, ''), /kubernetesEol: /],
    ['a duplicate minor', `${minimal}  - { kubernetes: "1.36", eol: "2027-06-29", confirmed: true }\n`, /kubernetesEol\[1\]\.kubernetes: duplicate entry for 1\.36/],
    ['another schema version', minimal.replace('schemaVersion: 1', 'schemaVersion: 2'), /schemaVersion: expected schemaVersion: 1/],
    ['an empty support window', minimal.replace('["1.34", "1.35", "1.36"]', '[]'), /kubevirtKubernetes\[0\]\.kubernetes: expected at least one/],
  ])('rejects %s with one line naming the file', (_name, text, pattern) => {
    const message = problem(text);
    expect(message).toMatch(pattern);
    expect(message.startsWith('mounted/versions.yaml: ')).toBe(true);
    expect(message).not.toContain('\n');
  });

  it('counts further problems without listing them', () => {
    expect(problem('schemaVersion: 2\nupdated: nope\n')).toMatch(/\(and \d+ more problems\)$/);
  });
});
