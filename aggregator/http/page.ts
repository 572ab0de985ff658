import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { PACKAGE_ROOT } from '../../core/package-info.ts';

/** The page's files: index.html and style.css as written, app.js and render.js compiled from aggregator/page/*.ts. */
const ASSETS = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  '/render.js': { file: 'render.js', type: 'text/javascript; charset=utf-8' },
  '/style.css': { file: 'style.css', type: 'text/css; charset=utf-8' },
} as const;

/**
 * Defence in depth behind the page's own escaping: scripts and styles only from this origin,
 * no inline script, no framing, and fetches only back to the aggregator.
 */
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-cache',
};

/**
 * The built page, dist/aggregator/page: beside this module when it runs from dist/; from the sources
 * (tests run them), the build's copy, since the browser needs the compiled JavaScript.
 */
export function pageDirectory(): string {
  const beside = fileURLToPath(new URL('../page/', import.meta.url));
  return existsSync(path.join(beside, 'app.js')) ? beside : path.join(PACKAGE_ROOT, 'dist', 'aggregator', 'page');
}

/**
 * Reads the page's files once (they are small) and serves them from memory. Without them (no
 * build yet, or a build that left the page out) the page answers 503 with the reason; the API and the metrics
 * keep working, so a packaging mistake cannot take the aggregator down.
 */
export async function registerPage(app: FastifyInstance, directory: string = pageDirectory(), onMissing: (message: string) => void = () => undefined): Promise<void> {
  let loaded: Array<{ route: string; type: string; body: Buffer }>;
  try {
    loaded = await Promise.all(
      Object.entries(ASSETS).map(async ([route, asset]) => ({ route, type: asset.type, body: await readFile(path.join(directory, asset.file)) })),
    );
  } catch (error) {
    const message = `the page's files are missing (${error instanceof Error ? error.message : String(error)}); /api/v1 and /metrics still work`;
    onMissing(message);
    app.get('/', async (_request, reply) => reply.code(503).type('text/plain').send(`${message}\n`));
    return;
  }
  for (const { route, type, body } of loaded) {
    app.get(route, async (_request, reply) => reply.headers(SECURITY_HEADERS).type(type).send(body));
  }
  app.get('/favicon.ico', async (_request, reply) => reply.code(204).send());
}
