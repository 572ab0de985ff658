import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseOsRelease } from './os-release.ts';

function ok(text: string) {
  const result = parseOsRelease(text);
  if (result.state !== 'ok') throw new Error(`expected ok, got unknown: ${result.reason}`);
  return result.value;
}

describe('parseOsRelease', () => {
  it('reads RHEL 9 (double-quoted values)', () => {
    const os = ok(`NAME="Red Hat Enterprise Linux"
VERSION="9.4 (Plow)"
ID="rhel"
ID_LIKE="fedora"
VERSION_ID="9.4"
PLATFORM_ID="platform:el9"
PRETTY_NAME="Red Hat Enterprise Linux 9.4 (Plow)"
`);
    expect(os).toEqual({
      id: 'rhel',
      idLike: ['fedora'],
      versionId: '9.4',
      name: 'Red Hat Enterprise Linux',
      prettyName: 'Red Hat Enterprise Linux 9.4 (Plow)',
    });
  });

  it('reads Debian and Ubuntu (bare values)', () => {
    const os = ok('PRETTY_NAME="Ubuntu 24.04.1 LTS"\nNAME="Ubuntu"\nVERSION_ID="24.04"\nID=ubuntu\nID_LIKE=debian\nVERSION_CODENAME=noble\n');
    expect(os).toMatchObject({ id: 'ubuntu', idLike: ['debian'], versionId: '24.04', prettyName: 'Ubuntu 24.04.1 LTS' });
    expect(ok('ID=debian\nVERSION_ID="12"\n')).toMatchObject({ id: 'debian', idLike: [] });
  });

  it('splits a multi-word ID_LIKE and lower-cases IDs', () => {
    const os = ok('ID="Rocky"\nID_LIKE="RHEL centos  fedora"\n');
    expect(os.id).toBe('rocky');
    expect(os.idLike).toEqual(['rhel', 'centos', 'fedora']);
  });

  it("accepts single quotes, and keeps a backslash literal inside them", () => {
    const os = ok("ID='amzn'\nNAME='Amazon \\Linux'\n");
    expect(os).toMatchObject({ id: 'amzn', name: 'Amazon \\Linux' });
  });

  it('undoes the escapes os-release(5) allows in double quotes: \\" \\\\ \\$ \\`', () => {
    const os = ok('ID=x\nPRETTY_NAME="say \\"hi\\" costs \\$5 \\`now\\` a\\\\b"\n');
    expect(os.prettyName).toBe('say "hi" costs $5 `now` a\\b');
  });

  it('falls back to NAME, then ID, for the names', () => {
    expect(ok('ID=bottlerocket\nNAME=Bottlerocket\n')).toMatchObject({ name: 'Bottlerocket', prettyName: 'Bottlerocket' });
    expect(ok('ID=alpine\n')).toMatchObject({ name: 'alpine', prettyName: 'alpine', versionId: '' });
  });

  it('ignores comments, blank lines, lower-case keys and lines without "="', () => {
    const os = ok('# a comment\n\nid=wrong\nnot a line\n  ID=rhel\nVERSION_ID=9\n');
    expect(os).toMatchObject({ id: 'rhel', versionId: '9' });
  });

  it('tolerates CRLF line endings', () => {
    expect(ok('ID="ol"\r\nVERSION_ID="9.5"\r\n')).toMatchObject({ id: 'ol', versionId: '9.5' });
  });

  it('says "unknown" when ID is missing or empty', () => {
    for (const text of ['NAME="Something"\nVERSION_ID=1\n', 'ID=\n', 'ID=""\n', '']) {
      const result = parseOsRelease(text);
      expect(result).toEqual({ state: 'unknown', reason: expect.stringMatching(/no ID line/) });
    }
  });

  it('says "unknown" for a file truncated before its ID line, and for garbage', () => {
    expect(parseOsRelease('NAME="Red Hat Enterprise Linux"\nVERSION="9.4 (Pl').state).toBe('unknown');
    expect(parseOsRelease('\u0000\u0000ELF\u0002\u0001\u0001').state).toBe('unknown');
  });

  it('never throws and always gives an ok value with a non-empty id, or a reason (property)', () => {
    const osReleaseLike = fc
      .array(
        fc.tuple(
          fc.constantFrom('ID', 'ID_LIKE', 'NAME', 'PRETTY_NAME', 'VERSION_ID', 'X', 'id', ''),
          fc.constantFrom('', '"', "'"),
          fc.string({ maxLength: 30 }),
        ),
        { maxLength: 20 },
      )
      .map((rows) => rows.map(([key, quote, value]) => `${key}=${quote}${value}${quote}`).join('\n'));
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), osReleaseLike), (text) => {
        const result = parseOsRelease(text);
        if (result.state === 'ok') {
          expect(result.value.id.length).toBeGreaterThan(0);
          expect(result.value.idLike.every((like) => like.length > 0 && !/\s/.test(like))).toBe(true);
        } else {
          expect(result.reason.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 400 },
    );
  });
});
