/**
 * The parts of the docs that restate a definition, made from that definition: exit codes
 * (cli/exit-codes.ts), synopses (the commander programs), permissions (cli/permissions.ts), and the
 * labels and report fields the agent writes (the check families' declarations).
 * Each sits between `<!-- generated:KIND ARGS -->` and `<!-- /generated:KIND -->`;
 * `npm run generate:docs` rewrites them and scripts/docs.test.ts fails when one is out of date.
 */
import type { Command, Option } from 'commander';
import { agentCommand } from '../cli/commands/agent.ts';
import { aggregatorCommand } from '../cli/commands/aggregator.ts';
import { checkCommand } from '../cli/commands/check.ts';
import { gateCommand } from '../cli/commands/gate.ts';
import { pruneCommand } from '../cli/commands/prune.ts';
import { canaryCommand } from '../cli/commands/canary.ts';
import { tupleCommand } from '../cli/commands/tuple.ts';
import { explainCommand } from '../cli/commands/explain.ts';
import { COMMAND_EXITS, COMMAND_NAMES, type CommandName, ERROR_PREFIX, type ExitMeaning } from '../cli/exit-codes.ts';
import { type ClusterProgram, PERMISSIONS, type PermissionRule, type ProgramPermissions } from '../cli/permissions.ts';
import { VERDICT_LABELS } from '../agent/desired/labels.ts';
import { FAMILY_LABELS, FAMILY_REPORT_FIELDS } from '../core/checks/publications.ts';
import { VERDICT_FIELDS } from '../core/report/build.ts';
import { nodeValidationStatusSchema } from '../core/report/schema.ts';

/** The user docs that hold generated regions. */
export const GENERATED_DOCS = ['README.md', 'docs/agent.md', 'docs/aggregator.md', 'docs/canary.md', 'docs/check.md', 'docs/explain.md', 'docs/gate.md', 'docs/install.md', 'docs/security.md'] as const;

export const COMMAND_BUILDERS: Record<CommandName, () => Command> = {
  check: checkCommand,
  tuple: tupleCommand,
  gate: gateCommand,
  prune: pruneCommand,
  canary: canaryCommand,
  explain: explainCommand,
  agent: agentCommand,
  aggregator: aggregatorCommand,
};

function isCommandName(name: string): name is CommandName {
  return (COMMAND_NAMES as string[]).includes(name);
}

function isClusterProgram(name: string): name is ClusterProgram {
  return Object.hasOwn(PERMISSIONS, name);
}

/** The options a user can give, as help lists them (hidden ones and --help left out). */
export function visibleOptions(command: Command): Option[] {
  return command.createHelp().visibleOptions(command).filter((option) => option.long !== '--help');
}

const SYNOPSIS_WIDTH = 100;

/** `virtgate gate [--kubeconfig <path>] …`, wrapped under the command name. */
export function synopsis(name: CommandName): string {
  const command = COMMAND_BUILDERS[name]();
  const head = `virtgate ${name}`;
  const args = command.registeredArguments.map((argument) => (argument.required ? `<${argument.name()}>` : `[${argument.name()}]`));
  const words = [...args, ...visibleOptions(command).map((option) => (option.mandatory ? option.flags : `[${option.flags}]`))];
  const lines = [head];
  for (const word of words) {
    const last = lines.length - 1;
    if (`${lines[last]} ${word}`.length > SYNOPSIS_WIDTH && lines[last] !== head) lines.push(`${' '.repeat(head.length)} ${word}`);
    else lines[last] = `${lines[last]} ${word}`;
  }
  return ['```', ...lines, '```'].join('\n');
}

/** One column per command, one row per exit code any of them uses. */
export function exitCodesTable(names: readonly CommandName[]): string {
  const tables: readonly (readonly ExitMeaning[])[] = names.map((name) => COMMAND_EXITS[name]);
  const codes = [...new Set(tables.flatMap((table) => table.map((entry) => entry.code)))].sort((a, b) => a - b);
  const rows = codes.map((code) => `| ${code} | ${tables.map((table) => table.find((entry) => entry.code === code)?.meaning ?? '—').join(' | ')} |`);
  return [
    `| exit | ${names.map((name) => `\`virtgate ${name}\``).join(' | ')} |`,
    `|---|${names.map(() => '---|').join('')}`,
    ...rows,
    '',
    `An error is one line on stderr starting \`${ERROR_PREFIX.trim()}\`, never a stack trace; a Node.js older than 24 exits 2 too.`,
  ].join('\n');
}

/** The rules as a table: API group, resources, verbs, and the optional ones with what they add. */
export function permissionsTable(program: ClusterProgram): string {
  const { rules, optional = [], withValue, namespaced } = PERMISSIONS[program] as ProgramPermissions;
  const group = (name: string) => `\`${name === '' ? '""' : name}\``;
  const resources = (names: readonly string[]) => names.map((name) => `\`${name}\``).join(', ');
  const row = (rule: PermissionRule, note: string) => `| ${group(rule.group)} | ${resources(rule.resources)} | ${rule.verbs.join(', ')} | ${[note, rule.why].filter(Boolean).join(': ')} |`;
  return [
    '| API group | resources | verbs | |',
    '|---|---|---|---|',
    ...rules.map((rule) => row(rule, '')),
    ...(namespaced?.rules ?? []).map((rule) => row(rule, `in namespace \`${namespaced?.namespace}\` only`)),
    ...(withValue?.rules ?? []).map((rule) => row(rule, `only with \`${withValue?.set}\``)),
    ...optional.map((rule) => row(rule, `optional: without it ${rule.without}`)),
  ].join('\n');
}

const owners = (ids: readonly string[]) => ids.map((id) => `\`${id}\``).join(', ');

/** Every Node label the agent writes, from the declarations: the verdict's, then each check family's. */
export function labelsTable(): string {
  return [
    '| label | values | meaning | owner: the verdict, or the family of the checks |',
    '|---|---|---|---|',
    ...VERDICT_LABELS.map((label) => `| \`<prefix>/${label.name}\` | ${label.values} | ${label.meaning} | the verdict |`),
    ...FAMILY_LABELS.map((label) => `| \`<prefix>/${label.name}\` | ${label.values} | ${label.meaning} | ${owners(label.owner)} |`),
  ].join('\n');
}

/** Every status field a verdict writes, with its owner and the schema's own description. */
export function reportFieldsTable(): string {
  const description = (field: string) => nodeValidationStatusSchema.shape[field as keyof typeof nodeValidationStatusSchema.shape].description ?? '';
  return [
    '| `status.` field | owner: the verdict, or the family of the checks | meaning |',
    '|---|---|---|',
    ...VERDICT_FIELDS.map((field) => `| \`${field}\` | the verdict | ${description(field)} |`),
    ...FAMILY_REPORT_FIELDS.map(({ field, owner }) => `| \`${field}\` | ${owners(owner)} | ${description(field)} |`),
  ].join('\n');
}

/** The content of one region, from its kind and arguments. */
export function generate(kind: string, args: readonly string[]): string {
  const commands = (): CommandName[] =>
    args.map((arg) => {
      if (!isCommandName(arg)) throw new Error(`generated:${kind}: unknown command ${arg}`);
      return arg;
    });
  switch (kind) {
    case 'exit-codes':
      return exitCodesTable(commands());
    case 'synopsis': {
      const [name] = commands();
      if (name === undefined || args.length !== 1) throw new Error('generated:synopsis takes one command');
      return synopsis(name);
    }
    case 'permissions': {
      const [program] = args;
      if (program === undefined || args.length !== 1 || !isClusterProgram(program)) throw new Error(`generated:permissions takes one of ${Object.keys(PERMISSIONS).join(', ')}`);
      return permissionsTable(program);
    }
    case 'labels':
      return labelsTable();
    case 'report-fields':
      return reportFieldsTable();
    default:
      throw new Error(`unknown generated region kind ${kind}`);
  }
}

const OPEN = /<!-- generated:([a-z-]+)((?: [a-z-]+)*) -->/g;

/** Every generated region of a Markdown text rewritten from the definitions; the rest untouched. */
export function regenerate(text: string): string {
  let out = '';
  let from = 0;
  for (const match of text.matchAll(OPEN)) {
    const [open, kind = '', rawArgs = ''] = match;
    const start = match.index + open.length;
    if (start <= from) continue;
    const close = `<!-- /generated:${kind} -->`;
    const end = text.indexOf(close, start);
    if (end < 0) throw new Error(`${open} has no ${close}`);
    out += `${text.slice(from, start)}\n${generate(kind, rawArgs.trim().split(' ').filter(Boolean))}\n`;
    from = end;
  }
  return out + text.slice(from);
}

/** The kinds and arguments of the regions in a text (to prove a page holds the ones it should). */
export function regionsOf(text: string): string[] {
  return [...text.matchAll(OPEN)].map(([, kind, args]) => `${kind}${args ?? ''}`);
}
