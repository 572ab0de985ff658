/**
 * Runs `virtgate check` from its bundle (dist/bundle/check.js, one function expression made by
 * scripts/bundle.ts) with V8's code cache kept between runs. Node's module compile cache is made
 * when a module is compiled, before a run compiles most functions lazily, so it holds only the
 * top-level code; this one is made after a run and holds every function the run compiled, which
 * saves about a fifth of the command's CPU time (docs/development.md, Start-up). It is only an
 * optimisation: whatever goes wrong with it, the command runs without it.
 */
const fs = process.getBuiltinModule('node:fs');
const os = process.getBuiltinModule('node:os');
const path = process.getBuiltinModule('node:path');
const vm = process.getBuiltinModule('node:vm');

interface BundledProgram {
  main: (argv: string[]) => Promise<void>;
}

/**
 * The cache directory, this user's alone: code read from a cache is run, so a directory someone
 * else owns or can write to is never used. Undefined where there is no such directory.
 */
function ownCacheDir(create: boolean): string | undefined {
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  const dir = path.join(os.tmpdir(), `virtgate-code-cache-${uid}`);
  try {
    if (create) fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const info = fs.lstatSync(dir);
    return info.isDirectory() && info.uid === uid && (info.mode & 0o022) === 0 ? dir : undefined;
  } catch {
    return undefined;
  }
}

/** A short, stable name for a path (FNV-1a, 32 bits): each installed bundle keeps its own cache file. */
function pathKey(file: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < file.length; i += 1) hash = Math.imul(hash ^ file.charCodeAt(i), 0x01000193) >>> 0;
  return hash.toString(36);
}

/**
 * The cache file of this bundle (its path) as built (its size, modification time and inode): V8
 * checks a cache against the source's length only, so a rebuilt bundle of the same length would
 * otherwise be given the old code. V8 rejects a cache from another V8 version or other flags
 * itself (`cachedDataRejected`). Not a hash of the content: node:zlib alone costs 2.6 ms to load.
 */
function cacheName(bundle: URL): { slot: string; name: string } {
  const { size, mtimeNs, ino } = fs.statSync(bundle, { bigint: true });
  const slot = `check-${pathKey(bundle.pathname)}-`;
  return { slot, name: `${slot}${size.toString(36)}-${mtimeNs.toString(36)}-${ino.toString(36)}-${process.version}-${process.arch}.bin` };
}

function readCache(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}

/**
 * Writes the cache under a temporary name and renames it (a concurrent run reads a whole file or
 * none), then removes this bundle's older builds' files; other installations keep theirs.
 */
function writeCache({ slot, name }: { slot: string; name: string }, data: Buffer): void {
  const dir = ownCacheDir(true);
  if (!dir) return;
  try {
    const temporary = path.join(dir, `${name}.${process.pid}.tmp`);
    fs.writeFileSync(temporary, data, { mode: 0o600 });
    fs.renameSync(temporary, path.join(dir, name));
    for (const entry of fs.readdirSync(dir)) {
      if (entry !== name && entry.startsWith(slot) && entry.endsWith('.bin')) fs.rmSync(path.join(dir, entry), { force: true });
    }
  } catch {
    // No cache this time; the next run tries again.
  }
}

export async function runBundle(bundle: URL, argv: string[]): Promise<void> {
  const source = fs.readFileSync(bundle, 'utf8');
  const cache = cacheName(bundle);
  const dir = ownCacheDir(false);
  const cachedData = dir ? readCache(path.join(dir, cache.name)) : undefined;
  const script = new vm.Script(source, { filename: bundle.href, ...(cachedData ? { cachedData } : {}) });
  // The bundle's dynamic imports (execa, systeminformation, the other commands), resolved as the bundle's own would be.
  const importer = (specifier: string): Promise<unknown> => import(specifier.startsWith('.') ? new URL(specifier, bundle).href : specifier);
  const program = (script.runInThisContext() as (bundleUrl: string, importer: (specifier: string) => Promise<unknown>) => BundledProgram)(bundle.href, importer);
  await program.main(argv);
  if (!cachedData || script.cachedDataRejected) writeCache(cache, script.createCachedData());
}
