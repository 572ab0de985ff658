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

/** The bundle's first line, written by scripts/bundle.ts: `// virtgate <version>`. */
const VERSION_LINE = /^\/\/ virtgate ([0-9A-Za-z.+-]{1,64})\n/;

interface CacheSlot {
  /** One file per virtgate version: `check-<version>.bin`. */
  name: string;
  /** The first line of the file: which build of the bundle, on which Node.js, the cache was made from. */
  identity: string;
}

/**
 * The cache file of this virtgate version, and the build it must come from. V8 checks a cache
 * against the source's length only, so the file's first line names the bundle that made it: its
 * path and build (size, modification time and inode), Node.js's version and architecture. Another
 * installation of the same version (another path, or the same path rebuilt) does not take it and
 * writes its own over it. Not a hash of the content: node:zlib alone costs 2.6 ms to load, and a
 * SHA-1 of the bundle 0.7 ms.
 */
function cacheSlot(bundle: URL, source: string): CacheSlot {
  const { size, mtimeNs, ino } = fs.statSync(bundle, { bigint: true });
  const version = VERSION_LINE.exec(source)?.[1] ?? 'unversioned';
  return { name: `check-${version}.bin`, identity: `${JSON.stringify([bundle.pathname, size.toString(), mtimeNs.toString(), ino.toString(), process.version, process.arch])}\n` };
}

/** The cache files of the earlier layout, one per installed path and build: removed when a cache is written. */
const PER_PATH_CACHE = /^check-[0-9a-z]+-[0-9a-z]+-[0-9a-z]+-[0-9a-z]+-v\d+\.\d+\.\d+-\w+\.bin$/;

function readCache(file: string, identity: string): Buffer | undefined {
  try {
    const data = fs.readFileSync(file);
    const header = Buffer.from(identity);
    return data.subarray(0, header.length).equals(header) ? data.subarray(header.length) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Writes the cache under a temporary name and renames it (a concurrent run reads a whole file or
 * none), then removes the files of the earlier per-path layout; other versions keep theirs.
 */
function writeCache({ name, identity }: CacheSlot, data: Buffer): void {
  const dir = ownCacheDir(true);
  if (!dir) return;
  try {
    const temporary = path.join(dir, `${name}.${process.pid}.tmp`);
    fs.writeFileSync(temporary, Buffer.concat([Buffer.from(identity), data]), { mode: 0o600 });
    fs.renameSync(temporary, path.join(dir, name));
    for (const entry of fs.readdirSync(dir)) {
      if (PER_PATH_CACHE.test(entry)) fs.rmSync(path.join(dir, entry), { force: true });
    }
  } catch {
    // No cache this time; the next run tries again.
  }
}

export async function runBundle(bundle: URL, argv: string[]): Promise<void> {
  const source = fs.readFileSync(bundle, 'utf8');
  const cache = cacheSlot(bundle, source);
  const dir = ownCacheDir(false);
  const cachedData = dir ? readCache(path.join(dir, cache.name), cache.identity) : undefined;
  const script = new vm.Script(source, { filename: bundle.href, ...(cachedData ? { cachedData } : {}) });
  // The bundle's dynamic imports (execa, systeminformation, the other commands), resolved as the bundle's own would be.
  const importer = (specifier: string): Promise<unknown> => import(specifier.startsWith('.') ? new URL(specifier, bundle).href : specifier);
  const program = (script.runInThisContext() as (bundleUrl: string, importer: (specifier: string) => Promise<unknown>) => BundledProgram)(bundle.href, importer);
  await program.main(argv);
  if (!cachedData || script.cachedDataRejected) writeCache(cache, script.createCachedData());
}
