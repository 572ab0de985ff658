import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_VERSIONS_FILE, loadVersionData } from './load.ts';
import { VersionDataError } from './parse.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'virtgate-versions-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('loadVersionData', () => {
  it('loads the file shipped in the package by default', async () => {
    expect(DEFAULT_VERSIONS_FILE.endsWith(path.join('data', 'versions.yaml'))).toBe(true);
    const data = await loadVersionData();
    expect(data.schemaVersion).toBe(1);
    expect(data.updated).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('reports a missing file in one line naming it', async () => {
    const file = path.join(dir, 'absent.yaml');
    await expect(loadVersionData(file)).rejects.toThrow(new VersionDataError(`${file}: cannot read the version data file: no such file`));
  });

  it('reports a directory in one line naming it', async () => {
    await expect(loadVersionData(dir)).rejects.toThrow(/: cannot read the version data file: is a directory$/);
  });

  it('reports an invalid mounted replacement in one line naming it', async () => {
    const file = path.join(dir, 'bad.yaml');
    await writeFile(file, 'schemaVersion: 1\nupdated: "2026-13-01"\nkubevirtKubernetes: []\ncdiPairing: []\nkubernetesEol: []\n');
    const error = await loadVersionData(file).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(VersionDataError);
    expect((error as Error).message).toMatch(new RegExp(`^${file.replaceAll('.', '\\.')}: updated: expected a date YYYY-MM-DD \\(and 2 more problems\\)$`));
  });

  it('loads a valid replacement', async () => {
    const file = path.join(dir, 'good.yaml');
    await writeFile(
      file,
      'schemaVersion: 1\nupdated: 2026-01-15\nkubevirtKubernetes:\n  - { kubevirt: "1.10", kubernetes: ["1.37"] }\ncdiPairing: []\nkubernetesEol:\n  - { kubernetes: "1.37", eol: "2027-10-28", confirmed: false }\n',
    );
    const data = await loadVersionData(file);
    expect(data.updated).toBe('2026-01-15');
    expect(data.kubevirtKubernetes[0]?.kubevirt).toBe('1.10');
  });
});
