import path from 'node:path';
import { AGENT_SETTINGS } from '../agent/config.ts';
import { AGGREGATOR_SETTINGS } from '../aggregator/config.ts';
import { PACKAGE_ROOT } from '../core/package-info.ts';
import { flagName, type Setting, type SettingsTable, settingsOf } from '../core/settings/table.ts';

/** The docs regions generated from a settings table, by marker name and file. */
export const SETTINGS_DOCS: readonly { file: string; region: string; table: SettingsTable }[] = [
  { file: 'docs/agent.md', region: 'agent', table: AGENT_SETTINGS },
  { file: 'docs/aggregator.md', region: 'aggregator', table: AGGREGATOR_SETTINGS },
];

function defaultCell(entry: Setting): string {
  if (entry.defaultText !== undefined) return `\`${entry.defaultText}\``;
  if (entry.default === undefined) return entry.mandatory || entry.env ? '— (required)' : '—';
  // A boolean flag's cell says whether the flag is in effect when not given: `--no-vhv` is off.
  if (typeof entry.default === 'boolean') return (flagName(entry).startsWith('--no-') ? !entry.default : entry.default) ? 'on' : 'off';
  if (entry.default === '') return '""';
  // A file shipped in the package shows as its path in the package, not this machine's.
  const text = String(entry.default);
  return text.startsWith(`${PACKAGE_ROOT}${path.sep}`) ? `the packaged \`${path.relative(PACKAGE_ROOT, text)}\`` : `\`${text}\``;
}

function escapeCell(text: string): string {
  return text.replaceAll('|', '\\|');
}

/** One Markdown row per shown setting: flag (and environment variable), default, help. */
export function settingsMarkdown(table: SettingsTable): string {
  const rows = settingsOf(table)
    .filter(({ setting }) => !setting.hidden)
    .map(({ setting }) => {
      const flag = `\`${flagName(setting)}\`${setting.env ? ` / \`${setting.env}\`` : ''}`;
      return `| ${flag} | ${defaultCell(setting)} | ${escapeCell(setting.help)} |`;
    });
  return ['| flag | default | |', '|---|---|---|', ...rows].join('\n');
}

/** Replaces the text between `<!-- settings:NAME -->` and `<!-- /settings:NAME -->`, keeping the markers. */
export function replaceRegion(text: string, region: string, content: string): string {
  const open = `<!-- settings:${region} -->`;
  const close = `<!-- /settings:${region} -->`;
  const start = text.indexOf(open);
  const end = text.indexOf(close);
  if (start < 0 || end < start) throw new Error(`markers ${open} … ${close} not found`);
  return `${text.slice(0, start + open.length)}\n${content}\n${text.slice(end)}`;
}
