import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../core/package-info.ts';
import { isExternal, markdownLinks } from './markdown-links.ts';

const DOCS = path.join(PACKAGE_ROOT, 'docs');
const read = (file: string) => readFileSync(path.join(DOCS, file), 'utf8');

/** Each page's first line names its audience, in one of these two forms. */
const LABELS = {
  users: 'Audience: **users** — installing and running virtgate. [All documentation](README.md)',
  contributors: 'Audience: **contributors** — working on virtgate itself. [All documentation](README.md)',
} as const;
type Audience = keyof typeof LABELS;

/** The index's section for each audience. */
const SECTIONS: Record<Audience, string> = { users: '## For users', contributors: '## For contributors' };

const PAGES = readdirSync(DOCS, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.md') && file !== 'README.md').sort();

function audienceOf(page: string): Audience | undefined {
  const firstLine = read(page).split('\n', 1)[0];
  return (Object.keys(LABELS) as Audience[]).find((audience) => LABELS[audience] === firstLine);
}

/** The pages the index links to under one section heading. */
function listedUnder(heading: string): string[] {
  const index = read('README.md');
  const start = index.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`docs/README.md has no "${heading}" section`);
  const next = index.indexOf('\n## ', start + heading.length + 2);
  const section = index.slice(start, next < 0 ? undefined : next);
  return markdownLinks(section).map((link) => link.target).filter((target) => !isExternal(target) && target.endsWith('.md'));
}

describe('the documentation index (docs/README.md)', () => {
  it('finds the pages', () => {
    expect(PAGES).toEqual(expect.arrayContaining(['check.md', 'install.md', 'development.md']));
  });

  it.each(PAGES)('%s says its audience on its first line', (page) => {
    expect(audienceOf(page), `docs/${page} must start with one of:\n${Object.values(LABELS).join('\n')}`).toBeDefined();
  });

  it('lists every page once, under the audience its first line names', () => {
    const listed = { users: listedUnder(SECTIONS.users), contributors: listedUnder(SECTIONS.contributors) };
    const expected: Record<Audience, string[]> = { users: [], contributors: [] };
    for (const page of PAGES) {
      const audience = audienceOf(page);
      if (audience !== undefined) expected[audience].push(page);
    }
    expect([...listed.users].sort()).toEqual(expected.users);
    expect([...listed.contributors].sort()).toEqual(expected.contributors);
  });
});
