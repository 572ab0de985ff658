import { describe, expect, it } from 'vitest';
import { headingAnchor, isExternal, markdownLinks, pageAnchors } from './markdown-links.ts';

describe('markdownLinks', () => {
  it('finds inline links, images and reference definitions, with their lines', () => {
    const page = [
      'See [the install guide](docs/install.md#images) and [`virtgate check`](docs/check.md).',
      '![the page](docs/page.png "a title") and [a [nested] text](other.md)',
      '[ref]: ./target.md',
    ].join('\n');
    expect(markdownLinks(page)).toEqual([
      { target: 'docs/install.md#images', line: 1 },
      { target: 'docs/check.md', line: 1 },
      { target: 'docs/page.png', line: 2 },
      { target: 'other.md', line: 2 },
      { target: './target.md', line: 3 },
    ]);
  });

  it('ignores what code blocks and code spans hold', () => {
    const page = [
      'Use `[x](not-a-link.md)` and ``[y](nor-this.md)``, but [z](this.md).',
      '```sh',
      'echo "[a](inside-a-fence.md)"',
      '```',
      '~~~',
      '```',
      '[b](still-inside.md)',
      '~~~',
      '[c](after.md)',
    ].join('\n');
    expect(markdownLinks(page)).toEqual([{ target: 'this.md', line: 1 }, { target: 'after.md', line: 9 }]);
  });
});

describe('isExternal', () => {
  it('tells URLs from paths in the repository', () => {
    expect(['https://kubevirt.io/', 'mailto:a@b.c', '//example.com/x'].map(isExternal)).toEqual([true, true, true]);
    expect(['docs/check.md', '../README.md#x', '#changes', 'api/'].map(isExternal)).toEqual([false, false, false, false]);
  });
});

describe('headingAnchor', () => {
  // Anchors as GitHub renders them for these headings of this repository's docs.
  it.each([
    ['JSON schema (`--json`)', 'json-schema---json'],
    ['Alerts (`monitoring.prometheusRule.enabled=true`)', 'alerts-monitoringprometheusruleenabledtrue'],
    ['The NodeValidation CRD', 'the-nodevalidation-crd'],
    ['Testing a release (`helm test`)', 'testing-a-release-helm-test'],
    ['`<fullname>-agent-node`: UPDATE (and PATCH) of `nodes` and `nodes/status`', 'fullname-agent-node-update-and-patch-of-nodes-and-nodesstatus'],
    ['What the suite depends on, and what it must not', 'what-the-suite-depends-on-and-what-it-must-not'],
    ['How the node is started (test/lab/node/real-node.ts)', 'how-the-node-is-started-testlabnodereal-nodets'],
    ['The prune hook (prune/)', 'the-prune-hook-prune'],
    ['See [the index](README.md) — for_users', 'see-the-index--for_users'],
  ])('%s → #%s', (heading, anchor) => {
    expect(headingAnchor(heading)).toBe(anchor);
  });
});

describe('pageAnchors', () => {
  it('takes every heading level, numbers repeats as GitHub does, and skips code blocks', () => {
    const page = ['# Title', '## Flags', '```', '# not a heading', '```', '### Flags ##', '<a id="custom-spot"></a>', '#NoSpace'].join('\n');
    expect([...pageAnchors(page)].sort()).toEqual(['custom-spot', 'flags', 'flags-1', 'title']);
  });
});
