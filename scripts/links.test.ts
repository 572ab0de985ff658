import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../core/package-info.ts';
import { isExternal, markdownLinks, pageAnchors } from './markdown-links.ts';

/** The pages whose links must work: the README and everything under docs/. */
const PAGES = ['README.md', ...readdirSync(path.join(PACKAGE_ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.md'))
  .map((file) => path.join('docs', file))].sort();

const read = (file: string) => readFileSync(path.join(PACKAGE_ROOT, file), 'utf8');

/** Why a relative link from `page` leads nowhere, or undefined when it works. */
function brokenBecause(page: string, target: string): string | undefined {
  const [rawPath = '', fragment] = target.split('#', 2);
  const file = rawPath === '' ? page : path.normalize(path.join(path.dirname(page), decodeURIComponent(rawPath)));
  if (file.startsWith('..') || path.isAbsolute(file)) return 'points outside the repository';
  const absolute = path.join(PACKAGE_ROOT, file);
  if (!existsSync(absolute)) return `${file} does not exist`;
  if (fragment === undefined) return undefined;
  if (file.endsWith('.md')) return pageAnchors(read(file)).has(fragment) ? undefined : `${file} has no heading #${fragment}`;
  // GitHub's line anchors are the only ones other files have.
  return statSync(absolute).isFile() && /^L\d+(-L\d+)?$/.test(fragment) ? undefined : `#${fragment} is not an anchor of ${file}`;
}

describe('relative links in README.md and docs/', () => {
  const links = PAGES.flatMap((page) => markdownLinks(read(page)).filter((link) => !isExternal(link.target)).map((link) => ({ page, ...link })));

  it('finds the pages and their links', () => {
    expect(PAGES).toContain('docs/development.md');
    // A parser that stopped seeing links would make the next test pass with nothing checked.
    expect(links.length).toBeGreaterThan(60);
  });

  it('each lead to a file that exists and, with a #fragment, to a heading in it', () => {
    const broken = links.flatMap(({ page, line, target }) => {
      const reason = brokenBecause(page, target);
      return reason === undefined ? [] : [`${page}:${line}: (${target}) ${reason}`];
    });
    expect(broken).toEqual([]);
  });
});
