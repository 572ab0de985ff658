/**
 * Every program's help is generated from its settings table: each visible entry appears as its
 * flag with its help text and environment variable, hidden ones do not, and the default help
 * shows is the table's default (read back through the entry's own parser, so `5m` must mean 300).
 */
import type { Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { AGENT_SETTINGS } from '../../agent/config.ts';
import { AGGREGATOR_SETTINGS } from '../../aggregator/config.ts';
import { type Setting, type SettingsTable, settingsOf } from '../../core/settings/table.ts';
import { agentCommand } from '../commands/agent.ts';
import { aggregatorCommand } from '../commands/aggregator.ts';
import { checkCommand } from '../commands/check.ts';
import { gateCommand } from '../commands/gate.ts';
import { pruneCommand } from '../commands/prune.ts';
import { canaryCommand } from '../commands/canary.ts';
import { tupleCommand } from '../commands/tuple.ts';
import { CHECK_NODE_SETTINGS } from '../check-node/settings.ts';
import { CHECK_SETTINGS } from './check.ts';
import { GATE_SETTINGS } from './gate.ts';
import { PRUNE_SETTINGS } from './prune.ts';
import { CANARY_SETTINGS } from './canary.ts';
import { TUPLE_SETTINGS } from './tuple.ts';

const PROGRAMS: [string, () => Command, SettingsTable][] = [
  ['agent', agentCommand, AGENT_SETTINGS],
  ['aggregator', aggregatorCommand, AGGREGATOR_SETTINGS],
  ['gate', gateCommand, GATE_SETTINGS],
  ['prune', pruneCommand, PRUNE_SETTINGS],
  ['canary', canaryCommand, CANARY_SETTINGS],
  // `check --node`'s flags follow check's own.
  ['check', checkCommand, { ...CHECK_SETTINGS, ...CHECK_NODE_SETTINGS }],
  ['tuple', tupleCommand, TUPLE_SETTINGS],
];

/** The default as help shows it, turned back into a value the way a user's text would be. */
function shownDefault(entry: Setting, description: string): unknown {
  // What commander appends after the help text (which may itself say "default").
  const shown = /^ \(default: (.+?)(?:, env: [A-Z_]+)?\)$/.exec(description.slice(entry.help.length))?.[1];
  if (shown === undefined) return undefined;
  const text: string = shown.startsWith('"') ? JSON.parse(shown) : shown;
  return entry.parse ? entry.parse(text) : JSON.parse(shown);
}

describe.each(PROGRAMS)('virtgate %s --help', (_name, build, table) => {
  const command = build();
  const help = command.createHelp();
  const visible = help.visibleOptions(command).filter((option: Option) => option.long !== '--help');
  const entries = settingsOf(table).map(({ setting }) => setting);

  it('lists every visible table entry as its flag, in table order, and nothing else', () => {
    expect(visible.map((option) => help.optionTerm(option))).toEqual(entries.filter((entry) => !entry.hidden).map((entry) => entry.flag));
    expect(command.helpInformation()).not.toMatch(new RegExp(entries.filter((entry) => entry.hidden).map((entry) => entry.flag.split(' ')[0]).join('|') || '^$'));
  });

  it('shows each entry\'s help, environment variable and default as the table has them', () => {
    for (const entry of entries.filter((each) => !each.hidden)) {
      const option = visible.find((each) => help.optionTerm(each) === entry.flag) as Option;
      const description = help.optionDescription(option);
      expect(description.startsWith(entry.help), entry.flag).toBe(true);
      if (entry.env) expect(description, entry.flag).toContain(`env: ${entry.env}`);
      // A negated flag (--no-vhv) defaults to true without saying so.
      const expected = entry.default === undefined || option.negate ? undefined : entry.default;
      expect(shownDefault(entry, description), entry.flag).toEqual(expected);
      if (entry.default !== undefined) expect(entry.schema.safeParse(entry.default).success, entry.flag).toBe(true);
    }
  });
});
