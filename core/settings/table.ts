import { z } from 'zod';

/**
 * One setting of a program, written once: the command line (flag, help, environment variable,
 * default and how help shows it), the parser from text, and the validation. The table's shape is
 * the shape of the program's configuration object, so the table also says where the value goes.
 */
export interface Setting<S extends z.ZodType = z.ZodType> {
  /** commander syntax: `--interval <duration>`, `--allow-emulation`, `--no-vhv`. */
  readonly flag: string;
  readonly help: string;
  /** Validates the value, parsed or default; its message follows the flag in the one-line error. */
  readonly schema: S;
  /** Text to value (flag or environment variable); throws an Error saying what is expected. */
  readonly parse?: (text: string) => z.input<S>;
  readonly default?: z.output<S>;
  /** How help shows the default when the value itself reads badly (`5m` for 300). */
  readonly defaultText?: string;
  readonly env?: string;
  /** Testing only: accepted, not shown in help. */
  readonly hidden?: boolean;
  readonly mandatory?: boolean;
  /** Flags (attribute names) this one cannot be combined with. */
  readonly conflicts?: readonly string[];
  /**
   * Where the Helm chart takes this setting from: a dotted path in values.yaml, or false when the
   * chart fixes it or leaves it out. Unset: the program's section plus the setting's path, without
   * a `Seconds` suffix on a duration (`agent.watch.timeout`). See scripts/chart-settings.ts.
   */
  readonly chart?: string | false;
  /** Set by durationSetting: the value is seconds, written as text such as `5m`. */
  readonly duration?: { readonly min?: string; readonly max?: string };
}

export interface SettingsTable {
  readonly [key: string]: Setting | SettingsTable;
}

/** Declares a setting; keeps whether it has a default in its type, so the defaults are typed. */
export function setting<S extends z.ZodType>(entry: Setting<S> & { readonly default: z.output<S> }): Setting<S> & { readonly default: z.output<S> };
export function setting<S extends z.ZodType>(entry: Setting<S>): Setting<S>;
export function setting<S extends z.ZodType>(entry: Setting<S>): Setting<S> {
  return entry;
}

export function isSetting(entry: Setting | SettingsTable): entry is Setting {
  return typeof entry.flag === 'string' && entry.schema instanceof z.ZodType;
}

type ShapeOf<T extends SettingsTable> = {
  [K in keyof T]: T[K] extends Setting<infer S> ? S : T[K] extends SettingsTable ? z.ZodObject<ShapeOf<T[K]>> : never;
};

/** The configuration a table describes. */
export type ConfigOf<T extends SettingsTable> = z.output<z.ZodObject<ShapeOf<T>>>;

/** The defaults of a table, nested like the configuration; settings without one are left out. */
export type DefaultsOf<T extends SettingsTable> = {
  -readonly [K in keyof T as T[K] extends Setting ? (T[K] extends { readonly default: unknown } ? K : never) : K]: T[K] extends {
    readonly default: infer D;
  }
    ? D
    : T[K] extends SettingsTable
      ? DefaultsOf<T[K]>
      : never;
};

/** Every setting of a table with its path in the configuration (`taint.maxShare`). */
export function settingsOf(table: SettingsTable, prefix: readonly string[] = []): { path: string[]; setting: Setting }[] {
  return Object.entries(table).flatMap(([key, entry]) =>
    isSetting(entry) ? [{ path: [...prefix, key], setting: entry }] : settingsOf(entry, [...prefix, key]),
  );
}

/** The long flag without its value placeholder: `--interval`. */
export function flagName(entry: Setting): string {
  return entry.flag.split(/[\s,]+/).find((part) => part.startsWith('--')) ?? entry.flag;
}

/**
 * How an error names a setting: the flag, and the environment variable too when that is where a
 * setting without a default normally comes from (`--node-name / NODE_NAME`).
 */
export function spelling(entry: Setting): string {
  return entry.env !== undefined && entry.default === undefined ? `${flagName(entry)} / ${entry.env}` : flagName(entry);
}

function shapeOf<T extends SettingsTable>(table: T): ShapeOf<T> {
  const shape = Object.fromEntries(Object.entries(table).map(([key, entry]) => [key, isSetting(entry) ? entry.schema : z.object(shapeOf(entry))]));
  return shape as ShapeOf<T>;
}

function defaultsOf<T extends SettingsTable>(table: T): DefaultsOf<T> {
  const defaults: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(table)) {
    if (!isSetting(entry)) defaults[key] = defaultsOf(entry);
    else if (entry.default !== undefined) defaults[key] = entry.default;
  }
  return defaults as DefaultsOf<T>;
}

/** A settings error as one line naming the first bad setting the way the user spells it. */
export class SettingsError extends Error {}

export interface Settings<T extends SettingsTable> {
  readonly table: T;
  readonly schema: z.ZodType<ConfigOf<T>>;
  readonly defaults: DefaultsOf<T>;
  /** Validates a configuration; throws a SettingsError naming the first bad setting, in one line. */
  parse(input: unknown): ConfigOf<T>;
}

/**
 * Derives the schema, the defaults and the error spelling from a table. `refine` adds the checks
 * that span settings; its issues' paths name the setting to blame.
 */
export function defineSettings<T extends SettingsTable>(table: T, refine?: (config: ConfigOf<T>, ctx: z.RefinementCtx) => void): Settings<T> {
  const object = z.object(shapeOf(table)) as unknown as z.ZodType<ConfigOf<T>>;
  const schema = refine ? object.superRefine(refine) : object;
  const names = new Map(settingsOf(table).map(({ path, setting: entry }) => [path.join('.'), spelling(entry)]));
  return {
    table,
    schema,
    defaults: defaultsOf(table),
    parse(input) {
      const result = schema.safeParse(input);
      if (result.success) return result.data;
      const issue = result.error.issues[0];
      const path = issue?.path.join('.') ?? '';
      throw new SettingsError(`${names.get(path) ?? (path || 'configuration')}: ${issue?.message ?? 'invalid value'}`);
    },
  };
}

/** A table holding only the named entries of another, in that order (a program reusing another's settings). */
export function pick<T extends SettingsTable, K extends keyof T>(table: T, keys: readonly K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((key) => [key, table[key]])) as Pick<T, K>;
}
