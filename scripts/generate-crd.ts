/** `npm run generate:crd`: writes the NodeValidation CRD, generated from the report schema, into the chart. */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PACKAGE_ROOT } from '../core/package-info.ts';
import { CRD_FILE, nodeValidationCrdYaml } from './crd.ts';

await writeFile(path.join(PACKAGE_ROOT, CRD_FILE), nodeValidationCrdYaml());
process.stdout.write(`wrote ${CRD_FILE}\n`);
