/**
 * The chart side of the settings tables. Each program setting the chart exposes is one value in
 * values.yaml; from the tables come that value's default and comment (a region of values.yaml),
 * its JSON Schema (merged into the hand-written values.schema.base.json) and the container
 * argument that passes it (templates/_settings.tpl). `npm run generate:settings` writes them;
 * scripts/settings.test.ts fails when a copy differs.
 */
import { z } from 'zod';
import { AGENT_SETTINGS } from '../agent/config.ts';
import { AGGREGATOR_SETTINGS } from '../aggregator/config.ts';
import { flagName, type Setting, type SettingsTable, settingsOf } from '../core/settings/table.ts';

export const CHART_DIR = 'charts/virtgate';
export const VALUES_FILE = `${CHART_DIR}/values.yaml`;
export const SCHEMA_BASE_FILE = `${CHART_DIR}/values.schema.base.json`;
export const SCHEMA_FILE = `${CHART_DIR}/values.schema.json`;
export const ARGS_TEMPLATE_FILE = `${CHART_DIR}/templates/_settings.tpl`;

/** The programs the chart runs, each with its section of values.yaml. */
export const CHART_PROGRAMS: readonly { program: 'agent' | 'aggregator'; table: SettingsTable }[] = [
  { program: 'agent', table: AGENT_SETTINGS },
  { program: 'aggregator', table: AGGREGATOR_SETTINGS },
];

export interface ChartSetting {
  /** Dotted path in values.yaml: `agent.watch.timeout`. */
  readonly value: string;
  readonly setting: Setting;
}

/** Where a setting's chart value lives, or undefined when the chart does not expose it. */
export function chartValueOf(program: string, settingPath: readonly string[], setting: Setting): string | undefined {
  if (setting.chart === false || setting.hidden) return undefined;
  if (typeof setting.chart === 'string') return setting.chart;
  const keys = [...settingPath];
  if (setting.duration) keys[keys.length - 1] = keys[keys.length - 1]!.replace(/Seconds$/, '');
  return [program, ...keys].join('.');
}

/** The settings of one program the chart passes, in table order. */
export function chartSettingsOf(program: string, table: SettingsTable): ChartSetting[] {
  return settingsOf(table).flatMap(({ path, setting }) => {
    const value = chartValueOf(program, path, setting);
    return value === undefined ? [] : [{ value, setting }];
  });
}

/** Every chart value that feeds a setting, once (`prefix` feeds both programs). */
export function allChartSettings(): ChartSetting[] {
  const byValue = new Map<string, ChartSetting>();
  for (const { program, table } of CHART_PROGRAMS) for (const entry of chartSettingsOf(program, table)) if (!byValue.has(entry.value)) byValue.set(entry.value, entry);
  return [...byValue.values()];
}

/** The value as values.yaml holds it: a duration as its text, a setting without a default as "". */
export function chartDefault(setting: Setting): string | number | boolean {
  if (setting.duration) return setting.defaultText ?? '';
  const value = setting.default;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (value === undefined) return '';
  throw new Error(`${flagName(setting)}: a chart value must be a string, number or boolean`);
}

function sentence(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

/** A `# --` comment (the chart README's values table reads these), in the words of the flag's help. */
function comment(setting: Setting): string {
  const flag = flagName(setting);
  // A boolean the chart holds as on/off, where the flag turns it off.
  const what = flag.startsWith('--no-') ? `false: ${setting.help}` : setting.help;
  const notes = [what];
  if (setting.duration) notes.push('a duration such as 30s, 5m, 1h');
  if (setting.default === undefined) notes.push('empty: not passed');
  return `# -- ${notes.join('; ')} (\`${flag}\`)`;
}

// Strings are always quoted: Helm reads YAML 1.1, where a bare `off` is false.
function yamlScalar(value: string | number | boolean): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

interface ValueTree {
  [key: string]: ValueTree | ChartSetting;
}

function isLeaf(node: ValueTree | ChartSetting): node is ChartSetting {
  return 'setting' in node && 'value' in node && typeof node.value === 'string';
}

function yamlLines(tree: ValueTree, indent: string): string[] {
  return Object.entries(tree).flatMap(([key, node]) =>
    isLeaf(node) ? [`${indent}${comment(node.setting)}`, `${indent}${key}: ${yamlScalar(chartDefault(node.setting))}`] : [`${indent}${key}:`, ...yamlLines(node, `${indent}  `)],
  );
}

/** The generated regions of values.yaml: `root` (top-level keys) and one per program section. */
export const VALUES_REGIONS = ['root', ...CHART_PROGRAMS.map(({ program }) => program)] as const;

/** The lines of one values.yaml region, indented for where it stands. */
export function valuesRegion(region: string): string {
  const tree: ValueTree = {};
  const inRegion = allChartSettings().filter(({ value }) => (region === 'root' ? !value.includes('.') : value.startsWith(`${region}.`)));
  for (const entry of inRegion) {
    const keys = region === 'root' ? [entry.value] : entry.value.split('.').slice(1);
    let node = tree;
    for (const key of keys.slice(0, -1)) node = (node[key] ??= {}) as ValueTree;
    node[keys[keys.length - 1]!] = entry;
  }
  return yamlLines(tree, region === 'root' ? '' : '  ').join('\n');
}

/**
 * Replaces a values.yaml region between `# >>> settings:NAME …` and `# <<< settings:NAME`,
 * keeping the marker lines.
 */
export function replaceValuesRegion(text: string, region: string, content: string): string {
  const open = new RegExp(`^[ \\t]*# >>> settings:${region}\\b.*$`, 'm');
  const close = new RegExp(`^[ \\t]*# <<< settings:${region}$`, 'm');
  const start = open.exec(text);
  const end = close.exec(text);
  if (!start || !end || end.index < start.index) throw new Error(`values.yaml: markers "# >>> settings:${region}" … "# <<< settings:${region}" not found`);
  const afterOpen = start.index + start[0].length;
  return `${text.slice(0, afterOpen)}\n${content}\n${text.slice(end.index)}`;
}

type JsonSchema = Record<string, unknown>;

const DURATION_TEXT = { type: 'string', pattern: '^[0-9]+(\\.[0-9]+)?(ms|s|m|h|d)?$' };

/** The JSON Schema of one chart value, from the setting's zod schema. */
export function valueSchema(setting: Setting): JsonSchema {
  const { $schema: _ignored, ...json } = z.toJSONSchema(setting.schema, { io: 'input' }) as JsonSchema;
  const description = sentence(setting.help);
  // A duration is text for people (`5m`) or seconds; the number form keeps the setting's bounds.
  if (setting.duration) return { anyOf: [DURATION_TEXT, json], description: `${description} A duration such as 30s, 5m or 1h, or seconds.` };
  if (setting.default === undefined) return { anyOf: [{ const: '' }, json], description: `${description} Empty: not passed.` };
  return { ...json, description };
}

function objectAt(root: JsonSchema, keys: readonly string[]): JsonSchema {
  let node = root;
  for (const key of keys) {
    const properties = (node.properties ??= {}) as Record<string, JsonSchema>;
    node = properties[key] ??= { type: 'object', additionalProperties: false, properties: {} };
  }
  return node;
}

/**
 * values.schema.json: the hand-written base with every setting's value schema at its path. A key
 * the base already has for a setting value is a chart-only tightening (a port of 0 means "any" to
 * the program, but no containerPort), and wins over the generated one.
 */
export function chartSchema(base: JsonSchema): JsonSchema {
  const schema = structuredClone(base);
  for (const { value, setting } of allChartSettings()) {
    const keys = value.split('.');
    const parent = objectAt(schema, keys.slice(0, -1));
    const properties = (parent.properties ??= {}) as Record<string, JsonSchema>;
    const key = keys[keys.length - 1]!;
    properties[key] = { ...valueSchema(setting), ...properties[key] };
  }
  return schema;
}

/** How the template reaches a value: `.Values.agent.taint.maxShare`. */
function valueRef(value: string): string {
  return `.Values.${value}`;
}

/** One argument of the template: each chunk renders as "\n- ..." or as nothing. */
function argChunk({ value, setting }: ChartSetting): string {
  const flag = flagName(setting);
  const ref = valueRef(value);
  if (typeof setting.default === 'boolean') {
    if (flag.startsWith('--no-')) return `\n{{- if not ${ref} }}\n- ${flag}\n{{- end }}`;
    if (setting.default) throw new Error(`${flag}: a boolean that defaults to on needs a --no- flag for the chart to turn it off`);
    return `\n{{- if ${ref} }}\n- ${flag}\n{{- end }}`;
  }
  const passed = `\n- {{ printf "${flag}=%v" ${ref} | quote }}`;
  // An empty value leaves the flag out, so the program's own default (or "unset") applies.
  if (setting.default === undefined || setting.default === '') return `\n{{- if ne (toString ${ref}) "" }}${passed}\n{{- end }}`;
  return passed;
}

/** templates/_settings.tpl: one `virtgate.<program>.settingArgs` definition per program. */
export function argsTemplate(): string {
  const definitions = CHART_PROGRAMS.map(
    ({ program, table }) => `{{- define "virtgate.${program}.settingArgs" -}}${chartSettingsOf(program, table).map(argChunk).join('')}\n{{- end }}`,
  );
  return [
    '{{- /*',
    "Generated from the programs' settings tables by `npm run generate:settings`: edit the tables",
    '(agent/config.ts, aggregator/config.ts), not this file. Each definition renders the container',
    'arguments of the chart values that feed a program setting, one "- --flag=value" per line.',
    '*/ -}}',
    ...definitions,
    '',
  ].join('\n');
}
