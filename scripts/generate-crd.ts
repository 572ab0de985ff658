/** `npm run generate:crd`: writes the NodeValidation CRD, generated from the report schema, into the chart (a template gated by crds.install). */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PACKAGE_ROOT } from '../core/package-info.ts';
import { CRD_FILE, nodeValidationCrdTemplate } from './crd.ts';

await mkdir(path.dirname(path.join(PACKAGE_ROOT, CRD_FILE)), { recursive: true });
await writeFile(path.join(PACKAGE_ROOT, CRD_FILE), nodeValidationCrdTemplate());
process.stdout.write(`wrote ${CRD_FILE}\n`);
