/** Where an executable is on PATH, or null: the demo only mentions kubectl commands that can run. */
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import path from 'node:path';

export async function which(command: string, searchPath: string = process.env.PATH ?? ''): Promise<string | null> {
  for (const dir of searchPath.split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, command);
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}
