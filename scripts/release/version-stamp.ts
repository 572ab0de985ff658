/**
 * The release's version written into package.json and package-lock.json (pure, text in and out),
 * so the CLI's `--version`, the images' /app/package.json and the tarball's name all say it.
 * Only the version fields change; every other field keeps its value and place.
 */
import { z } from 'zod';

const manifestShape = z.looseObject({ name: z.literal('virtgate'), version: z.string() });
const lockShape = z.looseObject({ name: z.literal('virtgate'), version: z.string(), packages: z.looseObject({ '': z.looseObject({ version: z.string() }) }) });

type Json = Record<string, unknown>;

export function stampManifest(text: string, version: string): Json {
  const original = JSON.parse(text) as Json;
  manifestShape.parse(original);
  return { ...original, version };
}

export function stampLock(text: string, version: string): Json {
  const original = JSON.parse(text) as Json;
  lockShape.parse(original);
  const packages = original.packages as Json;
  return { ...original, version, packages: { ...packages, '': { ...(packages[''] as Json), version } } };
}

export const jsonText = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;
