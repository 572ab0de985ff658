import { Command, InvalidArgumentError, Option } from 'commander';
import { evaluateTuple } from '../../aggregator/gate/tuple.ts';
import type { GateStatus, TupleReport } from '../../aggregator/gate/types.ts';
import { observeVersion, type ObservedVersion } from '../../aggregator/gate/observed-version.ts';
import { DEFAULT_GATE_CONFIG } from '../../aggregator/model/config.ts';
import { DEFAULT_VERSIONS_FILE, loadVersionData } from '../../aggregator/versions/load.ts';
import { VersionDataError } from '../../aggregator/versions/parse.ts';
import { minorOf } from '../../aggregator/versions/minor.ts';
import type { VersionData } from '../../aggregator/versions/schema.ts';
import { paint } from '../render/colour.ts';
import { UsageError } from '../usage-error.ts';

interface TupleOptions {
  kubevirt: string;
  kubernetes: string;
  cdi?: string;
  date?: Date;
  versions: string;
  json: boolean;
}

/** The `--json` document: the tuple report plus the data file it used. */
export interface TupleJson extends TupleReport {
  versionsFile: string;
}

/** A version as users write it: 1.35, v1.35.2, v1.35.2-eks-4f2a9b1. At least MAJOR.MINOR. */
function version(value: string): string {
  if (!/^v?\d+\.\d+(\.\d+)?([-+][0-9A-Za-z.+-]*)?$/.test(value) || minorOf(value) === null) {
    throw new InvalidArgumentError('expected a version such as 1.35, v1.35.2 or v1.35.2-eks-4f2a9b1.');
  }
  return value;
}

/** A calendar day, YYYY-MM-DD, as midnight UTC; rejects days that do not exist (2026-02-30). */
function day(value: string): Date {
  const date = new Date(`${value}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) {
    throw new InvalidArgumentError('expected a date YYYY-MM-DD.');
  }
  return date;
}

export function tupleCommand(): Command {
  return new Command('tuple')
    .description('check a KubeVirt / Kubernetes / CDI version tuple offline: support window, end of life, CDI pairing')
    .addOption(new Option('--kubevirt <version>', 'KubeVirt version, e.g. 1.7 or v1.7.2').argParser(version).makeOptionMandatory())
    .addOption(new Option('--kubernetes <version>', 'Kubernetes version, e.g. 1.35 or v1.35.2-eks-4f2a9b1').argParser(version).makeOptionMandatory())
    .addOption(new Option('--cdi <version>', 'CDI version, e.g. 1.64').argParser(version))
    .addOption(new Option('--date <YYYY-MM-DD>', 'evaluate on this day instead of today (UTC)').argParser(day))
    .option('--versions <file>', 'version data file (support matrix, CDI pairing, EOL dates)', DEFAULT_VERSIONS_FILE)
    .option('--json', 'print the result as JSON', false)
    .addHelpText(
      'after',
      '\nExit codes: 0 pass, 1 fail, 3 warn or unknown, 2 bad input (version, date, data file).\n' +
        'Example: virtgate tuple --kubevirt 1.8 --kubernetes 1.35 --cdi 1.65',
    )
    .action(async (options: TupleOptions) => {
      process.exitCode = await runTuple(options);
    });
}

async function runTuple(options: TupleOptions): Promise<number> {
  const data = await loadData(options.versions);
  const tuple = {
    kubevirt: known(options.kubevirt),
    kubernetes: known(options.kubernetes),
    cdi: options.cdi === undefined ? ({ state: 'absent', reason: 'no CDI version given (--cdi)' } as const) : known(options.cdi),
  };
  // The CLI reads the clock; the evaluation itself is pure.
  const report = evaluateTuple(tuple, data, DEFAULT_GATE_CONFIG, options.date ?? new Date());
  if (options.json) {
    const document: TupleJson = { ...report, versionsFile: options.versions };
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

export function renderTuple(report: TupleReport): string {
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
