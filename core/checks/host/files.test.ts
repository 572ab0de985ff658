import { execFile } from 'node:child_process';
import { mkdir, open, symlink, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/lab/hosts/paths.ts';
import { evalWithout } from '../../../test/lab/hosts/privileges.ts';
import { describeRead, MAX_HOST_FILE_BYTES, readHostDir, readHostFile } from './files.ts';

const run = promisify(execFile);
const FILES_TS = path.join(import.meta.dirname, 'files.ts');

let root = '';
let remove = async () => {};

beforeAll(async () => {
  ({ dir: root, remove } = await tempDir('files'));
  await mkdir(path.join(root, 'proc'), { recursive: true });
});
afterAll(() => remove());

describe('readHostFile', () => {
  it('reads a regular file whole', async () => {
    await writeFile(path.join(root, 'proc/plain'), 'hello\n');
    expect(await readHostFile(root, 'proc/plain')).toEqual({ state: 'ok', text: 'hello\n', truncated: false });
  });

  it('stops at maxBytes and says it truncated', async () => {
    await writeFile(path.join(root, 'proc/ten'), '0123456789');
    expect(await readHostFile(root, 'proc/ten', 4)).toEqual({ state: 'ok', text: '0123', truncated: true });
    expect(await readHostFile(root, 'proc/ten', 10)).toMatchObject({ text: '0123456789' });
  });

  it('reads at most MAX_HOST_FILE_BYTES of a huge file', async () => {
    // A sparse 256 MiB file: no disk used, and reading it whole would be the bug.
    const huge = path.join(root, 'proc/huge');
    await writeFile(huge, 'x');
    await truncate(huge, 256 * 1024 * 1024);
    const read = await readHostFile(root, 'proc/huge');
    expect(read.state).toBe('ok');
    if (read.state === 'ok') {
      expect(read.truncated).toBe(true);
      expect(read.text.length).toBe(MAX_HOST_FILE_BYTES);
    }
  });

  it('says "missing" for an absent file and for a path through a regular file (ENOTDIR)', async () => {
    expect(await readHostFile(root, 'proc/absent')).toEqual({ state: 'missing' });
    await writeFile(path.join(root, 'proc/notadir'), '');
    expect(await readHostFile(root, 'proc/notadir/child')).toEqual({ state: 'missing' });
  });

  it('says "unreadable" (EISDIR) for a directory where a file belongs', async () => {
    await mkdir(path.join(root, 'proc/adir'));
    expect(await readHostFile(root, 'proc/adir')).toMatchObject({ state: 'unreadable', code: 'EISDIR' });
  });

  it('refuses a FIFO at once instead of blocking on it forever', async () => {
    // No writer ever opens this FIFO: a blocking open() would never return.
    await run('mkfifo', [path.join(root, 'proc/fifo')]);
    expect(await readHostFile(root, 'proc/fifo')).toEqual({
      state: 'unreadable',
      code: 'ENOTREG',
      detail: 'proc/fifo is a FIFO, not a regular file',
    });
  });

  it('refuses a FIFO that has a writer which never writes or closes', async () => {
    const fifo = path.join(root, 'proc/fifo-held');
    await run('mkfifo', [fifo]);
    // O_RDWR on a FIFO opens without waiting for a reader; it keeps a writer attached.
    const writer = await open(fifo, 'r+');
    try {
      expect(await readHostFile(root, 'proc/fifo-held')).toMatchObject({ state: 'unreadable', code: 'ENOTREG' });
    } finally {
      await writer.close();
    }
  });

  it('refuses a character device (an endless /dev/zero) instead of streaming it', async () => {
    await run('mknod', [path.join(root, 'proc/zero'), 'c', '1', '5']);
    expect(await readHostFile(root, 'proc/zero')).toMatchObject({ state: 'unreadable', code: 'ENOTREG', detail: expect.stringMatching(/a device/) });
  });

  it('says "unreadable" (ELOOP) for a symlink loop', async () => {
    await symlink('loop', path.join(root, 'proc/loop'));
    expect(await readHostFile(root, 'proc/loop')).toMatchObject({ state: 'unreadable', code: 'ELOOP' });
  });

  it('follows a relative symlink, as etc/os-release -> ../usr/lib/os-release is', async () => {
    await mkdir(path.join(root, 'usr/lib'), { recursive: true });
    await mkdir(path.join(root, 'etc'), { recursive: true });
    await writeFile(path.join(root, 'usr/lib/os-release'), 'ID=debian\n');
    await symlink('../usr/lib/os-release', path.join(root, 'etc/os-release'));
    expect(await readHostFile(root, 'etc/os-release')).toMatchObject({ state: 'ok', text: 'ID=debian\n' });
  });

  it('says "unreadable" (EACCES) for a mode-000 file when the reader lacks CAP_DAC_OVERRIDE', async () => {
    const file = path.join(root, 'proc/secret');
    await writeFile(file, 'secret\n', { mode: 0o000 });
    const outcome = await evalWithout(
      ['dac_override', 'dac_read_search'],
      `import { readHostFile } from ${JSON.stringify(FILES_TS)};
       process.stdout.write(JSON.stringify(await readHostFile(${JSON.stringify(root)}, 'proc/secret')));`,
    );
    expect(outcome.stderr).toBe('');
    expect(JSON.parse(outcome.stdout)).toMatchObject({ state: 'unreadable', code: 'EACCES' });
  });
});

describe('readHostDir and describeRead', () => {
  it('lists a directory, says "missing" for an absent one or a file', async () => {
    await mkdir(path.join(root, 'sys/module/kvm'), { recursive: true });
    expect(await readHostDir(root, 'sys/module')).toEqual({ state: 'ok', entries: ['kvm'] });
    expect(await readHostDir(root, 'sys/absent')).toEqual({ state: 'missing' });
    expect(await readHostDir(root, 'proc/plain')).toEqual({ state: 'missing' });
  });

  it('describes a failed read in one line', () => {
    expect(describeRead('proc/cpuinfo', { state: 'missing' })).toBe('proc/cpuinfo does not exist');
    expect(describeRead('proc/cpuinfo', { state: 'unreadable', code: 'EIO', detail: 'x' })).toBe('proc/cpuinfo could not be read (EIO)');
  });
});
