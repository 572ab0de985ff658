import YAML from 'yaml';
import type { z } from 'zod';
import { type VersionData, versionDataSchema } from './schema.ts';

/** A version data file that cannot be used. The message is one line and names the file. */
export class VersionDataError extends Error {
  override name = 'VersionDataError';
}

/** Parses and validates the text of a version data file; `source` names it in errors. Pure. */
export function parseVersionData(text: string, source: string): VersionData {
  const document = YAML.parseDocument(text, { prettyErrors: false });
  const yamlError = document.errors[0];
  if (yamlError) throw new VersionDataError(`${source}: not valid YAML: ${firstLine(yamlError.message)}`);
  const value: unknown = document.toJS({ maxAliasCount: 100 });
  if (value === null || value === undefined) throw new VersionDataError(`${source}: the file is empty`);
  const parsed = versionDataSchema.safeParse(value);
  if (!parsed.success) throw new VersionDataError(`${source}: ${describeIssues(parsed.error.issues)}`);
  return parsed.data;
}

/** The first problem as `path: message`, and how many more there are. */
function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  const [first] = issues;
  if (!first) return 'invalid';
  const where = formatPath(first.path);
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? 's' : ''})` : '';
  return `${where ? `${where}: ` : ''}${firstLine(first.message)}${more}`;
}

function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, part) => (typeof part === 'number' ? `${text}[${part}]` : text ? `${text}.${String(part)}` : String(part)), '');
}

function firstLine(text: string): string {
  return text.split('\n')[0]?.trim() ?? '';
}
