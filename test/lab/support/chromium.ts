/** Debian's Chromium, driven by playwright-core. Never downloads a browser. */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** The network is closed here: anything Chromium would fetch in the background must stay off. */
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Chromium headless with a fresh profile. Missing Chromium is a failure, never a skip. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium is not at ${CHROMIUM}: install Debian chromium (apt-get install chromium); this test never downloads a browser`);
  }
  const profile = await mkdtemp(path.join(os.tmpdir(), 'virtgate-chromium-'));
  // Chromium keeps the real clock: libfaketime, preloaded by the calendar run
  // (scripts/test-calendar.sh), breaks its crash handler even where it fakes nothing.
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => key !== 'LD_PRELOAD' && !key.startsWith('FAKETIME'))) as Record<string, string>;
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS, env, viewport: { width: 1400, height: 1000 } });
  return {
    context,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
