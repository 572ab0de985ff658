/** The SHA-256 of a file, as `sha256sum` prints it: SHA256SUMS and the krew manifest's `sha256`. */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';

export async function sha256File(file: string): Promise<string> {
  // Streamed: the image archives are hundreds of MB.
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}
