/**
 * The links and heading anchors of a Markdown page, read the way GitHub renders it, so a test can
 * tell a link that would lead nowhere on GitHub. Pure: text in, data out.
 */

/** A link's target as written, and the line it is on (1-based). */
export type MarkdownLink = { target: string; line: number };

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** The page's lines with fenced code blocks blanked out (kept as empty lines, so line numbers hold). */
function proseLines(text: string): string[] {
  const lines = text.split('\n');
  let fence: string | undefined;
  return lines.map((line) => {
    const opener = FENCE.exec(line)?.[1];
    if (fence === undefined) {
      if (opener === undefined) return line;
      fence = opener;
      return '';
    }
    // A fence closes with at least as many of the same character and nothing after them.
    if (opener !== undefined && opener[0] === fence[0] && opener.length >= fence.length && line.trim() === opener) fence = undefined;
    return '';
  });
}

/** A line without its code spans: `[a](b)` inside backticks is text, not a link. */
function withoutCodeSpans(line: string): string {
  return line.replace(/(`+)[^`][\s\S]*?\1(?!`)/g, (span) => ' '.repeat(span.length));
}

// [text](target) or ![alt](target), with an optional "title"; the text may hold one level of brackets.
const INLINE_LINK = /!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^\s()<>]+)>?(?:\s+"[^"]*")?\s*\)/g;
// [label]: target
const REFERENCE_DEFINITION = /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$/;

/** Every link of the page outside code: inline links, images and reference definitions. */
export function markdownLinks(text: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  proseLines(text).forEach((raw, index) => {
    const line = withoutCodeSpans(raw);
    const definition = REFERENCE_DEFINITION.exec(line)?.[1];
    if (definition !== undefined) links.push({ target: definition, line: index + 1 });
    for (const match of line.matchAll(INLINE_LINK)) if (match[1] !== undefined) links.push({ target: match[1], line: index + 1 });
  });
  return links;
}

/** Whether a link leaves the repository (a URL with a scheme, or protocol-relative). */
export function isExternal(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');
}

/**
 * GitHub's anchor for a heading's text: the rendered text in lower case, punctuation and symbols
 * dropped (hyphens and underscores kept), each space a hyphen. Link markup renders as its text.
 */
export function headingAnchor(heading: string): string {
  const rendered = heading.replace(/!?\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\([^)]*\)/g, '$1');
  return rendered.trim().toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

const ATX_HEADING = /^ {0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const HTML_ID = /<a\s[^>]*\b(?:id|name)\s*=\s*"([^"]+)"/g;

/** Every anchor a link into the page can use: its headings' (repeats get -1, -2, … as on GitHub) and explicit `<a id>`s. */
export function pageAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const raw of proseLines(text)) {
    for (const match of raw.matchAll(HTML_ID)) if (match[1] !== undefined) anchors.add(match[1]);
    const heading = ATX_HEADING.exec(raw);
    if (heading === null) continue;
    const base = headingAnchor(heading[1] ?? '');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}
