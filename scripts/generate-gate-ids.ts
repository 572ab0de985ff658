/** `npm run generate:gate-ids`: writes the gate's check ids (aggregator/documents/gate-check-ids.ts) from the rule registry. */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PACKAGE_ROOT } from '../core/package-info.ts';
import { GATE_CHECK_IDS_FILE, gateCheckIdsModule } from '../aggregator/gate/rules.ts';

await writeFile(path.join(PACKAGE_ROOT, GATE_CHECK_IDS_FILE), gateCheckIdsModule());
process.stdout.write(`wrote ${GATE_CHECK_IDS_FILE}\n`);
