/**
 * The environment of every process the fault suite starts (agents, aggregators, CLI runs): a
 * shared V8 compile cache, which takes about 40 % off the CPU of each Node start-up — the suite
 * starts well over a hundred of them on a shared two-core machine.
 */
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    faultCompileCache: string;
  }
}

export function childEnv(): Record<string, string> {
  const cache = inject('faultCompileCache');
  return cache ? { NODE_COMPILE_CACHE: cache } : {};
}

/** The environment of a CLI run in the fault suite: the shared compile cache, and no colour. */
export function cliEnv(): Record<string, string> {
  return { ...childEnv(), NO_COLOR: '1' };
}
