import { z } from 'zod';
import { DEFAULT_VERSIONS_FILE } from '../../aggregator/versions/load.ts';
import { minorOf } from '../../aggregator/versions/minor.ts';
import { jsonSetting } from '../../core/settings/common.ts';
import { day } from '../../core/settings/parsers.ts';
import { type ConfigOf, defineSettings, setting } from '../../core/settings/table.ts';

/** A version as users write it: 1.35, v1.35.2, v1.35.2-eks-4f2a9b1. At least MAJOR.MINOR. */
function version(value: string): string {
  if (!/^v?\d+\.\d+(\.\d+)?([-+][0-9A-Za-z.+-]*)?$/.test(value) || minorOf(value) === null) {
    throw new Error('expected a version such as 1.35, v1.35.2 or v1.35.2-eks-4f2a9b1.');
  }
  return value;
}

/** `virtgate tuple` settings. */
export const TUPLE_SETTINGS = {
  kubevirt: setting({ flag: '--kubevirt <version>', help: 'KubeVirt version, e.g. 1.7 or v1.7.2', schema: z.string(), parse: version, mandatory: true }),
  kubernetes: setting({
    flag: '--kubernetes <version>',
    help: 'Kubernetes version, e.g. 1.35 or v1.35.2-eks-4f2a9b1',
    schema: z.string(),
    parse: version,
    mandatory: true,
  }),
  cdi: setting({ flag: '--cdi <version>', help: 'CDI version, e.g. 1.64', schema: z.string().optional(), parse: version }),
  calendarDate: setting({
    flag: '--calendar-date <YYYY-MM-DD>',
    help: 'judge the version calendar (support windows, end of life, data age) as of this UTC day instead of today',
    schema: z.date().optional(),
    parse: day,
  }),
  /** The old name of --calendar-date, still accepted (with a note on stderr) so scripts keep working. */
  deprecatedDate: setting({ flag: '--date <YYYY-MM-DD>', help: 'deprecated: use --calendar-date', schema: z.date().optional(), parse: day, hidden: true, conflicts: ['calendarDate'] }),
  versions: setting({
    flag: '--versions <file>',
    help: 'version data file (support matrix, CDI pairing, EOL dates)',
    schema: z.string().min(1),
    default: DEFAULT_VERSIONS_FILE,
  }),
  json: jsonSetting('print the result as JSON'),
};

export const tupleSettings = defineSettings(TUPLE_SETTINGS);

export type TupleSettings = ConfigOf<typeof TUPLE_SETTINGS>;
