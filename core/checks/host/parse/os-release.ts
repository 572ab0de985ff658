import type { Observation } from '../../observation.ts';

export interface OsRelease {
  id: string;
  idLike: string[];
  versionId: string;
  name: string;
  prettyName: string;
}

/** Unquotes a shell-style os-release value: "x", 'x' or bare, with backslash escapes in double quotes. */
function unquote(raw: string): string {
  const value = raw.trim();
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
    return value.slice(1, -1).replace(/\\(["\\`$])/g, '$1');
  }
  if (value.length >= 2 && value.startsWith("'") && value.endsWith("'")) return value.slice(1, -1);
  return value;
}

/** Parses etc/os-release (os-release(5)). */
export function parseOsRelease(text: string): Observation<OsRelease> {
  const fields = new Map<string, string>();
  // CRLF too: `.` stops at a stray \r, which would hide every line of a file saved on Windows.
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (match?.[1] && match[2] !== undefined) fields.set(match[1], unquote(match[2]));
  }
  const id = fields.get('ID')?.toLowerCase();
  if (!id) return { state: 'unknown', reason: 'etc/os-release has no ID line; it is empty, truncated or malformed' };
  return {
    state: 'ok',
    value: {
      id,
      idLike: (fields.get('ID_LIKE') ?? '').toLowerCase().split(/\s+/).filter(Boolean),
      versionId: fields.get('VERSION_ID') ?? '',
      name: fields.get('NAME') ?? id,
      prettyName: fields.get('PRETTY_NAME') ?? fields.get('NAME') ?? id,
    },
  };
}
