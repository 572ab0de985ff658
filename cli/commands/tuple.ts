import { Command } from 'commander';
import { evaluateTuple } from '../../aggregator/gate/tuple.ts';
import type { GateStatus, TupleResult } from '../../aggregator/documents/gate.ts';
import { observeVersion, type ObservedVersion } from '../../aggregator/gate/observed-version.ts';
import { DEFAULT_GATE_CONFIG } from '../../aggregator/model/config.ts';
import { loadVersionData } from '../../aggregator/versions/load.ts';
import { VersionDataError } from '../../aggregator/versions/parse.ts';
import type { VersionData } from '../../aggregator/versions/schema.ts';
import { DOCUMENT_KINDS, type TypeMeta, typeMeta } from '../../core/documents.ts';
import { paint } from '../render/colour.ts';
import { addSettings, configOf } from '../settings/flags.ts';
import { type TupleSettings, tupleSettings } from '../settings/tuple.ts';
import { exitCodesHelp, ERROR_PREFIX } from '../exit-codes.ts';
import { UsageError } from '../usage-error.ts';

/** The `--json` document (`kind: TupleResult`): the tuple report plus the data file it used. */
export interface TupleJson extends TypeMeta<typeof DOCUMENT_KINDS.tuple>, TupleResult {
  versionsFile: string;
}

export function tupleCommand(): Command {
  return addSettings(new Command('tuple'), tupleSettings)
    .description('check a KubeVirt / Kubernetes / CDI version tuple offline: support window, end of life, CDI pairing')
    .addHelpText(
      'after',
      `\n${exitCodesHelp('tuple')}\n` +
        'Example: virtgate tuple --kubevirt 1.8 --kubernetes 1.35 --cdi 1.65',
    )
    .action(async (flags: Record<string, unknown>) => {
      process.exitCode = await runTuple(configOf(tupleSettings, flags));
    });
}

async function runTuple(options: TupleSettings): Promise<number> {
  if (options.deprecatedDate !== undefined) process.stderr.write(`${ERROR_PREFIX}--date is deprecated and will be removed; use --calendar-date\n`);
  const data = await loadData(options.versions);
  const tuple = {
    kubevirt: known(options.kubevirt),
    kubernetes: known(options.kubernetes),
    cdi: options.cdi === undefined ? ({ state: 'absent', reason: 'no CDI version given (--cdi)' } as const) : known(options.cdi),
  };
  // The CLI reads the clock; the evaluation itself is pure.
  const report = evaluateTuple(tuple, data, DEFAULT_GATE_CONFIG, options.calendarDate ?? options.deprecatedDate ?? new Date());
  if (options.json) {
    const document: TupleJson = { ...typeMeta(DOCUMENT_KINDS.tuple), ...report, versionsFile: options.versions };
    process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
  } else {
    process.stdout.write(renderTuple(report));
  }
  return report.exitCode;
}

async function loadData(file: string): Promise<VersionData> {
  try {
    return await loadVersionData(file);
  } catch (error) {
    if (error instanceof VersionDataError) throw new UsageError(error.message);
    throw error;
  }
}

function known(raw: string): ObservedVersion {
  return observeVersion(raw, 'no version given');
}

const STATUS_STYLE = { pass: 'green', unknown: 'magenta', warn: 'yellow', fail: 'red' } as const satisfies Record<GateStatus, string>;

function status(value: GateStatus, width = 0): string {
  return paint(STATUS_STYLE[value], value.toUpperCase().padEnd(width));
}

function describe(label: string, version: ObservedVersion): string {
  return version.state === 'known' ? `${label} ${version.version}` : `${label} (none)`;
}

export function renderTuple(report: TupleResult): string {
  const idWidth = Math.max(...report.checks.map((check) => check.id.length));
  const { kubevirt, kubernetes, cdi } = report.tuple;
  const lines = [
    `virtgate tuple: ${describe('KubeVirt', kubevirt)}, ${describe('Kubernetes', kubernetes)}, ${describe('CDI', cdi)} on ${report.date}` +
      ` (version data of ${report.dataUpdated})`,
    '',
  ];
  for (const check of report.checks) lines.push(`  ${status(check.status, 7)}  ${check.id.padEnd(idWidth)}  ${check.message}`);
  lines.push('', `Result: ${status(report.result)} (exit ${report.exitCode})`);
  return `${lines.join('\n')}\n`;
}
