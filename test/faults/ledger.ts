/**
 * The fault ledger: every fault test appends one JSON line per fault it injected to a file in a
 * per-run directory (provided by ./global-setup.ts), and the global teardown prints the summary
 * from it. Appending synchronously keeps lines whole across the worker processes of a run.
 */
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import type { RecoveryBound } from './recovery-bounds.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    faultLedgerDir: string;
  }
}

export const LEDGER_FILE = 'ledger.jsonl';

export interface LedgerEntry {
  /** The kind of fault, e.g. `apiserver-kill`; the summary groups by it. */
  kind: string;
  /** Which test injected it. */
  test: string;
  /**
   * How many times a cluster fault was injected: 1, since every injection is its own row with its
   * own recovery (the summary fails a cluster row with any other count). 0 for an input case.
   */
  injected: number;
  /** Inputs an input case fed to virtgate (CLI argument rows, fuzz runs, hostile objects, broken files); 0 for a cluster fault. */
  inputsTried?: number;
  /** The published state matched the truth afterwards and nothing was lost. */
  recovered: boolean;
  /** From the end of the injection (component back, delay removed, conflicting write landed, file restored) to convergence: the longest of `recoveriesMs`. */
  convergeMs: number | null;
  /** Every time to recover this fault measured (one per `converge`). */
  recoveriesMs?: number[];
  /** The most each recovery may take, from the configured settings; a cluster fault without one fails the run. */
  bound?: RecoveryBound;
  /** Cluster objects that had to survive the fault (Nodes, NodeValidations, foreign labels and taints, ...); never inputs. */
  objectsChecked: number;
  objectsLost: number;
  /** Why this fault cannot touch any object (a command without a cluster): the summary prints it beside a 0. */
  noObjects?: string;
  detail?: string;
}

function ledgerPath(): string {
  const dir = inject('faultLedgerDir');
  if (!dir) throw new Error('no fault ledger: run this file in the "faults" or "node" vitest project (npm run test:faults, npm run test:node)');
  return path.join(dir, LEDGER_FILE);
}

/**
 * One ledger row: one injection of a cluster fault, or one input case's inputs. `converge`
 * measures the time to convergence; `finish` writes the line (call it in a `finally`, so a fault
 * that did not recover is reported too).
 */
export class Fault {
  readonly kind: string;
  readonly test: string;
  private injectedCount = 0;
  private triedCount = 0;
  private clearedAt: number | undefined;
  private convergeMs: number | null = null;
  private readonly recoveries: number[] = [];
  private recoveryBound: RecoveryBound | undefined;
  private converged = false;
  private checked = 0;
  private lost = 0;
  private written = false;
  private note: string | undefined;
  private noObjectsReason: string | undefined;

  /** `ledgerFile` defaults to the run's ledger; the ledger's own self-test writes to a file of its own. */
  private readonly ledgerFile: string | undefined;

  constructor(kind: string, test: string, ledgerFile?: string) {
    this.kind = kind;
    this.test = test;
    this.ledgerFile = ledgerFile;
  }

  /** The cluster fault was injected (a row is one injection: make a new Fault for the next). */
  injected(times = 1): void {
    this.injectedCount += times;
  }

  /** The input case fed virtgate `times` more inputs (argument rows, fuzz runs, objects, files). */
  tried(times = 1): void {
    this.triedCount += times;
  }

  /** The fault is over: the time to converge counts from here. */
  cleared(): void {
    this.clearedAt = Date.now();
  }

  /** Runs the convergence wait and records how long it took after `cleared()`. */
  async converge<T>(wait: () => Promise<T>): Promise<T> {
    this.clearedAt ??= Date.now();
    const value = await wait();
    const took = Date.now() - this.clearedAt;
    this.recoveries.push(took);
    this.convergeMs = Math.max(this.convergeMs ?? 0, took);
    this.converged = true;
    return value;
  }

  /** A fault with nothing to converge (a command that must refuse or shrug): handled as it should be. */
  handled(): void {
    this.converged = true;
  }

  /** The most each recovery of this fault may take (recovery-bounds.ts); the summary holds every recovery to it. */
  bound(bound: RecoveryBound): void {
    this.recoveryBound = bound;
  }

  /** Objects that had to survive, and how many did not. */
  objects(checked: number, lost: number): void {
    this.checked += checked;
    this.lost += lost;
  }

  /** This fault cannot touch any cluster object; says why its class checks none. */
  touchesNoObjects(reason: string): void {
    this.noObjectsReason = reason;
  }

  detail(text: string): void {
    this.note = this.note ? `${this.note}; ${text}` : text;
  }

  finish(): LedgerEntry {
    const entry: LedgerEntry = {
      kind: this.kind,
      test: this.test,
      injected: this.injectedCount,
      ...(this.triedCount > 0 ? { inputsTried: this.triedCount } : {}),
      recovered: this.converged && this.lost === 0,
      convergeMs: this.convergeMs,
      ...(this.recoveries.length > 0 ? { recoveriesMs: [...this.recoveries] } : {}),
      ...(this.recoveryBound ? { bound: this.recoveryBound } : {}),
      objectsChecked: this.checked,
      objectsLost: this.lost,
      ...(this.noObjectsReason ? { noObjects: this.noObjectsReason } : {}),
      ...(this.note ? { detail: this.note } : {}),
    };
    if (!this.written) appendFileSync(this.ledgerFile ?? ledgerPath(), `${JSON.stringify(entry)}\n`);
    this.written = true;
    return entry;
  }
}
