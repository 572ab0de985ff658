import { describe, expect, it } from 'vitest';
import { xmlProblems, xpathString } from '../../test/lab/support/xmllint.ts';
import { REPLACEMENT, xmlAttribute, xmlText } from './xml-escape.ts';

describe('XML escaping', () => {
  it('escapes the five special characters, by hand-written expectation', () => {
    expect(xmlText(`a & b < c > d "e" 'f'`)).toBe(`a &amp; b &lt; c &gt; d "e" 'f'`);
    expect(xmlAttribute(`a & b < c > d "e" 'f'`)).toBe('a &amp; b &lt; c &gt; d &quot;e&quot; &apos;f&apos;');
    // Already-escaped text is escaped again: the value is text, not markup.
    expect(xmlText('&amp;')).toBe('&amp;amp;');
  });

  it('keeps tab, LF and CR as references where a parser would change them, and replaces what XML cannot carry', () => {
    expect(xmlAttribute('a\tb\nc\rd')).toBe('a&#9;b&#10;c&#13;d');
    expect(xmlText('a\tb\nc\rd')).toBe('a\tb\nc&#13;d');
    expect(xmlText('nul\u0000 bel\u0007 esc\u001b ff\u000c')).toBe(`nul${REPLACEMENT} bel${REPLACEMENT} esc${REPLACEMENT} ff${REPLACEMENT}`);
    expect(xmlText('lone \ud800 and \udc00; pair \ud83d\ude00; \ufffe\uffff')).toBe(`lone ${REPLACEMENT} and ${REPLACEMENT}; pair \ud83d\ude00; ${REPLACEMENT}${REPLACEMENT}`);
    // DEL and C1 controls are allowed in XML 1.0: kept.
    expect(xmlText('\u007f\u0085')).toBe('\u007f\u0085');
  });

  it('round-trips through a real parser (xmllint): what it reads back is the value, less what XML cannot carry', async () => {
    const value = `<tag attr="x"> & 'q' \t tab\nline\r\ncrlf \u0001 ü 漢 \ud83d\ude00 ]]>`;
    const readable = value.replace('\u0001', REPLACEMENT);
    const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<r a="${xmlAttribute(value)}" b='${xmlAttribute(value)}'>${xmlText(value)}</r>\n`;
    expect(await xmlProblems(xml)).toBe('');
    expect(await xpathString(xml, '/r/@a')).toBe(readable);
    expect(await xpathString(xml, '/r/@b')).toBe(readable);
    expect(await xpathString(xml, '/r')).toBe(readable);
  });

  it('the parser does refuse unescaped input, so the check above could fail', async () => {
    expect(await xmlProblems(`<r a="x"y"/>`)).not.toBe('');
    expect(await xmlProblems(`<r>a & b</r>`)).not.toBe('');
    expect(await xmlProblems(`<r>\u0001</r>`)).not.toBe('');
  });
});
