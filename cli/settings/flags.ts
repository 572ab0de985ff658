import { type Command, InvalidArgumentError, Option } from 'commander';
import { type ConfigOf, type Settings, type SettingsTable, settingsOf } from '../../core/settings/table.ts';
import { toUsageError } from '../usage-error.ts';

/** The commander option of each setting in a table, in table order. */
export function optionsOf(table: SettingsTable): Option[] {
  return settingsOf(table).map(({ setting }) => {
    const option = new Option(setting.flag, setting.help);
    const { parse } = setting;
    // commander prints an InvalidArgumentError as "option '--x <y>' argument 'z' is invalid. <message>".
    if (parse) {
      option.argParser((text: string) => {
        try {
          return parse(text);
        } catch (error) {
          throw new InvalidArgumentError(error instanceof Error ? error.message : String(error));
        }
      });
    }
    // A negated flag (--no-vhv) defaults to true by itself, and help does not show that.
    if (setting.default !== undefined && !option.negate) option.default(setting.default, setting.defaultText);
    if (setting.env !== undefined) option.env(setting.env);
    if (setting.hidden) option.hideHelp();
    if (setting.mandatory) option.makeOptionMandatory();
    if (setting.conflicts) option.conflicts([...setting.conflicts]);
    return option;
  });
}

/** Adds a program's settings to its command as flags. */
export function addSettings(command: Command, settings: { readonly table: SettingsTable }): Command {
  for (const option of optionsOf(settings.table)) command.addOption(option);
  return command;
}

/** Puts the parsed flags where the table says they go (`--taint-max-share` → taint.maxShare). */
export function inputOf(table: SettingsTable, flags: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const { path, setting } of settingsOf(table)) {
    let node = input;
    for (const key of path.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
    const value = flags[new Option(setting.flag).attributeName()];
    if (value !== undefined) node[path.at(-1) as string] = value;
  }
  return input;
}

/** The program's configuration from the parsed flags, validated: a bad one is a UsageError naming its flag. */
export function configOf<T extends SettingsTable>(settings: Settings<T>, flags: Readonly<Record<string, unknown>>): ConfigOf<T> {
  try {
    return settings.parse(inputOf(settings.table, flags));
  } catch (error) {
    throw toUsageError(error);
  }
}
