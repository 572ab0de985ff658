/**
 * XML 1.0 escaping for the JUnit report: no XML library is a dependency, and the report only
 * writes text and attribute values, so escaping them is all it needs.
 */

// Characters XML 1.0 cannot carry at all, not even as a character reference: C0 controls other
// than tab, LF and CR; lone surrogates; U+FFFE and U+FFFF. Messages quote what agents and the API
// server wrote, so they may hold any of them.
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** What stands in for a character XML cannot carry. */
export const REPLACEMENT = '\ufffd';

// A parser turns CR (and CR LF) into LF in text unless it is a reference.
const TEXT: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '\r': '&#13;' };
// In an attribute it also turns tab and LF into spaces.
const ATTRIBUTE: Record<string, string> = { ...TEXT, '"': '&quot;', "'": '&apos;', '\t': '&#9;', '\n': '&#10;' };

/** Element text: `&`, `<`, `>` and CR escaped, characters XML cannot carry replaced by U+FFFD. */
export function xmlText(value: string): string {
  return value.replace(NOT_XML, REPLACEMENT).replace(/[&<>\r]/g, (char) => TEXT[char] ?? char);
}

/** An attribute value in either quote: also `"`, `'`, and tab, LF and CR as references, so they survive parsing. */
export function xmlAttribute(value: string): string {
  return value.replace(NOT_XML, REPLACEMENT).replace(/[&<>"'\t\n\r]/g, (char) => ATTRIBUTE[char] ?? char);
}
