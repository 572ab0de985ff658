import type { z } from 'zod';

/**
 * A settings error as one line that names the first bad setting the way the user spells it
 * (`--taint-max-share: ...`): `names` maps a schema path (`taint.maxShare`) to that spelling.
 */
export function settingError(error: z.ZodError, names: Readonly<Record<string, string>>): Error {
  const issue = error.issues[0];
  const path = issue?.path.join('.') ?? '';
  return new Error(`${names[path] ?? (path || 'configuration')}: ${issue?.message ?? 'invalid value'}`);
}
