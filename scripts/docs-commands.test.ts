/**
 * Every `virtgate …` command line in the code blocks of README.md and docs/*.md, run with the
 * built CLI (dist/, as a user runs it) in a sandbox holding what the examples name: a fixture host
 * for `/host` and `./fixture`, a recorded `vhv.txt`, and kubeconfigs (`~/.kube/…`, the default one
 * with a `prod` context) whose server is a closed loopback port. A line must parse (an unknown flag
 * fails here) and exit as the docs say: the exit shown in its output if any; `check` and `tuple`
 * with a result, never a usage error; `gate` and `prune` with the documented code for "the
 * cluster could not be reached or read"; every error line starts with the one prefix.
 */
import { access, copyFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { COMMAND_EXITS, COMMAND_NAMES, type CommandName, ERROR_PREFIX } from '../cli/exit-codes.ts';
import { EXIT } from '../cli/usage-error.ts';
import { PACKAGE_ROOT } from '../core/package-info.ts';
import { closedPort } from '../test/lab/controlplane/ports.ts';
import { buildHost } from '../test/lab/hosts/build-host.ts';
import { tempDir, vhvFixture } from '../test/lab/hosts/paths.ts';
import { COMMAND_BUILDERS } from './docs.ts';
import { type DocumentedCommand, documentedCommands, shellWords } from './docs-commands.ts';

const BUILT_CLI = path.join(PACKAGE_ROOT, 'dist/cli/main.js');

/** What the examples write where a reader puts their own value; the rest of each line runs as written. */
const SUBSTITUTIONS: Record<string, string> = {
  '$(kubectl version -o json | jq -r .serverVersion.gitVersion)': 'v1.36.3',
  "$(kubectl get kubevirt -A -o jsonpath='{.items[0].status.observedKubeVirtVersion}')": 'v1.9.0',
};

async function userDocs(): Promise<string[]> {
  const docs = (await readdir(path.join(PACKAGE_ROOT, 'docs'))).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`);
  return ['README.md', ...docs.sort()];
}

let sandbox = '';
let home = '';
let remove = async () => {};
let commands: DocumentedCommand[] = [];

function kubeconfig(server: string, contexts: string[]): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'unreachable', cluster: { server, 'insecure-skip-tls-verify': true } }],
    users: [{ name: 'someone', user: { token: 'not-checked' } }],
    contexts: contexts.map((name) => ({ name, context: { cluster: 'unreachable', user: 'someone' } })),
    'current-context': contexts[0],
  });
}

beforeAll(async () => {
  await access(BUILT_CLI).catch(() => {
    throw new Error('dist/cli/main.js is missing: run `npm run build` (npm test does it first) before the tests');
  });
  ({ dir: sandbox, remove } = await tempDir('docs-commands'));
  home = path.join(sandbox, 'home');
  const server = `https://127.0.0.1:${await closedPort()}`;
  await mkdir(path.join(home, '.kube'), { recursive: true });
  for (const name of ['config', 'prod', 'admin']) await writeFile(path.join(home, '.kube', name), kubeconfig(server, name === 'config' ? ['default', 'prod'] : [name]));
  await buildHost(path.join(sandbox, 'fixture'), 'intel-metal');
  await buildHost(path.join(sandbox, 'host'), 'intel-metal');
  await copyFile(await vhvFixture('libvirt-9.0-kvm-ok.txt'), path.join(sandbox, 'vhv.txt'));
  // `virtgate explain -f vm.yaml`: a VM not yet created, which explain reads before the cluster.
  await writeFile(path.join(sandbox, 'vm.yaml'), 'apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata: {name: fedora}\nspec: {template: {spec: {domain: {devices: {}}}}}\n');
  const substitutions = { ...SUBSTITUTIONS, ' /host': ` ${path.join(sandbox, 'host')}` };
  for (const file of await userDocs()) commands.push(...documentedCommands(file, await readFile(path.join(PACKAGE_ROOT, file), 'utf8'), home, substitutions));
});
afterAll(() => remove());

async function virtgate(args: string[]) {
  const result = await execa(process.execPath, [BUILT_CLI, ...args], {
    cwd: sandbox,
    env: { ...process.env, HOME: home, KUBECONFIG: path.join(home, '.kube', 'config'), NO_COLOR: '1', FORCE_COLOR: undefined },
    extendEnv: false,
    reject: false,
    timeout: 90_000,
    stdin: 'ignore',
  });
  if (result.timedOut) throw new Error(`virtgate ${args.join(' ')} did not finish in 90 s`);
  return { code: result.exitCode ?? -1, stdout: result.stdout, stderr: result.stderr };
}

function subcommandOf(command: DocumentedCommand): CommandName | undefined {
  const [first] = command.args;
  return first !== undefined && (COMMAND_NAMES as string[]).includes(first) ? (first as CommandName) : undefined;
}

/** The codes the docs allow for a line, and why. */
function expectedExits(command: DocumentedCommand, name: CommandName | undefined): { codes: number[]; why: string } {
  if (command.args.some((arg) => ['--help', '-h', '--version', '-V'].includes(arg))) return { codes: [EXIT.ok], why: 'help or version' };
  // A cluster command's output shows a real cluster; here the cluster cannot be read.
  if (name === 'gate' || name === 'prune' || name === 'explain' || (name === 'check' && command.args.includes('--node'))) return { codes: [EXIT.cluster], why: 'the cluster cannot be read (closed port)' };
  if (command.shownExit !== undefined) return { codes: [command.shownExit], why: 'the exit its output shows' };
  if (name === undefined) return { codes: [EXIT.ok], why: 'no command' };
  // A result, never a usage error: every documented code of the command but 2 (and 4).
  const results = COMMAND_EXITS[name].map((entry) => entry.code).filter((code) => code !== EXIT.usage && code !== EXIT.cluster);
  return { codes: results, why: `a result of ${name}` };
}

describe('the command lines the docs show', () => {
  it('are found: the extraction sees the examples it must run', () => {
    const texts = commands.map((command) => `${command.file}: ${command.text}`);
    expect(texts).toContain('README.md: virtgate gate --context prod                 # gate a VM migration in CI (kubeconfig found as kubectl finds it)');
    expect(texts.some((text) => text.startsWith('docs/install.md: virtgate prune --dry-run'))).toBe(true);
    expect(commands.find((command) => command.file === 'docs/gate.md' && command.args[0] === 'tuple')?.shownExit).toBe(3);
    // Output lines and synopses are not commands.
    expect(texts.filter((text) => /virtgate (tuple|gate):/.test(text))).toEqual([]);
    expect(texts.filter((text) => text.includes('[--'))).toEqual([]);
    expect(commands.length).toBeGreaterThanOrEqual(12);
    // The exit a cluster command's output shows is one its exit-code table documents.
    for (const command of commands) {
      const name = subcommandOf(command);
      if (name !== undefined && command.shownExit !== undefined) expect(COMMAND_EXITS[name].map((entry) => entry.code), command.text).toContain(command.shownExit);
    }
  });

  it('parse: every flag is one the command defines (checked without running it)', async () => {
    const unknown: string[] = [];
    for (const command of commands) {
      const name = subcommandOf(command);
      if (name === undefined) continue;
      const program = COMMAND_BUILDERS[name]()
        .exitOverride()
        .configureOutput({ writeErr: () => {}, writeOut: () => {} })
        .action(() => {});
      // Help ends parsing early; a missing mandatory flag is the run's business below.
      await program.parseAsync(command.args.slice(1), { from: 'user' }).catch((error: unknown) => {
        const code = error && typeof error === 'object' && 'code' in error ? String(error.code) : '';
        if (!['commander.helpDisplayed', 'commander.missingMandatoryOptionValue'].includes(code)) unknown.push(`${command.file}:${command.line}: ${command.text}: ${String(error)}`);
      });
    }
    expect(unknown).toEqual([]);
  });

  it('run with the built CLI and exit as documented, with one error prefix', async () => {
    const wrong: string[] = [];
    // One at a time: the machine is shared, and each gate or prune waits out its retries.
    for (const command of commands) {
      const name = subcommandOf(command);
      const expected = expectedExits(command, name);
      const run = await virtgate(command.args);
      const where = `${command.file}:${command.line}: ${command.text}`;
      if (!expected.codes.includes(run.code)) wrong.push(`${where}: exit ${run.code}, documented ${expected.codes.join(' or ')} (${expected.why}); stderr: ${run.stderr.slice(0, 300)}`);
      const stderrLines = run.stderr.split('\n').filter((line) => line !== '');
      const unprefixed = stderrLines.filter((line) => !line.startsWith(ERROR_PREFIX));
      if (unprefixed.length > 0) wrong.push(`${where}: stderr lines without "${ERROR_PREFIX}": ${JSON.stringify(unprefixed)}`);
      if (run.code === EXIT.cluster && stderrLines.length !== 1) wrong.push(`${where}: ${stderrLines.length} lines on stderr, not one`);
      if (run.code !== EXIT.cluster && run.stdout.trim() === '') wrong.push(`${where}: printed nothing`);
    }
    expect(wrong).toEqual([]);
  }, 600_000);
});

describe('reading a command line as a shell does', () => {
  it('keeps quoted words whole and drops comments and pipes', () => {
    expect(shellWords(`virtgate check --json | jq '.checks[]'   # note`, '/h')).toEqual(['virtgate', 'check', '--json']);
    expect(shellWords(`virtgate gate --kubeconfig ~/.kube/prod --context "my prod"`, '/h')).toEqual(['virtgate', 'gate', '--kubeconfig', '/h/.kube/prod', '--context', 'my prod']);
    expect(shellWords('virtgate prune # remove it', '/h')).toEqual(['virtgate', 'prune']);
    expect(documentedCommands('x.md', '```\nvirtgate fault suite summary\nvirtgate --version\n```', '/h').map((command) => command.args)).toEqual([['--version']]);
    expect(() => shellWords(`virtgate check '--json`, '/h')).toThrow(/unterminated/);
  });

  it('finds commands only in code blocks, joins continued lines, and reads the exit their output shows', () => {
    const text = ['virtgate check outside a block', '```', '$ virtgate tuple --kubevirt 1.9 \\', '    --kubernetes 1.36', 'virtgate tuple: output', 'Result: PASS (exit 0)', '```'].join('\n');
    expect(documentedCommands('x.md', text, '/h')).toEqual([
      { file: 'x.md', line: 3, text: '$ virtgate tuple --kubevirt 1.9      --kubernetes 1.36', args: ['tuple', '--kubevirt', '1.9', '--kubernetes', '1.36'], shownExit: 0 },
    ]);
  });
});
