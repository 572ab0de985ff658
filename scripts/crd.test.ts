import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { PACKAGE_ROOT } from '../core/package-info.ts';
import { CRD_FILE, crdYamlOfTemplate, nodeValidationCrd, nodeValidationCrdTemplate, nodeValidationCrdYaml, nodeValidationOpenApiSchema } from './crd.ts';

type JsonSchema = { [keyword: string]: unknown };

/**
 * The JSONSchemaProps keywords this CRD may use; anything else is a generator change to review
 * (minimum/maximum: the inventory's counts and generations; pattern: a condition's reason; the
 * list-type keywords: conditions are a map keyed by type, as metav1.Condition lists are).
 */
const KEYWORDS = new Set([
  'type', 'properties', 'required', 'items', 'enum', 'format', 'pattern', 'minLength', 'maxLength', 'maxItems', 'minimum', 'maximum', 'description',
  'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-validations', 'x-kubernetes-list-type', 'x-kubernetes-list-map-keys',
]);

function* nodes(schema: JsonSchema, at = ''): Generator<[string, JsonSchema]> {
  yield [at || '.', schema];
  for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>)) yield* nodes(property, `${at}.${name}`);
  if (schema.items) yield* nodes(schema.items as JsonSchema, `${at}[]`);
}

describe('the NodeValidation CRD', () => {
  it('in the chart is the one generated from core/report/schema.ts', () => {
    const inChart = readFileSync(path.join(PACKAGE_ROOT, CRD_FILE), 'utf8');
    expect(inChart, `${CRD_FILE} is out of date: run \`npm run generate:crd\` and commit the result`).toBe(nodeValidationCrdTemplate());
    expect(crdYamlOfTemplate(inChart)).toBe(nodeValidationCrdYaml());
  });

  it('has the status subresource, so a status write never bumps metadata.generation, and is kept by helm uninstall', () => {
    const crd = nodeValidationCrd() as { metadata: { annotations: Record<string, string> }; spec: { versions: Array<{ subresources: unknown }> } };
    expect(crd.spec.versions[0]?.subresources).toEqual({ status: {} });
    expect(crd.metadata.annotations['helm.sh/resource-policy']).toBe('keep');
  });

  it('reads back as the same object under YAML 1.1 rules, as Helm reads it (the taint policy "off" stays a string)', () => {
    expect(parse(nodeValidationCrdYaml(), { version: '1.1' })).toEqual(nodeValidationCrd());
  });

  it('has a structural schema: a type on every field, no additionalProperties, only keywords the API server knows', () => {
    for (const [at, schema] of nodes(nodeValidationOpenApiSchema())) {
      expect(Object.keys(schema).filter((keyword) => !KEYWORDS.has(keyword)), at).toEqual([]);
      expect(typeof schema.type, at).toBe('string');
    }
  });

  it('declares every field its printer columns show', () => {
    const root = nodeValidationOpenApiSchema();
    const versions = (nodeValidationCrd().spec as { versions: Array<{ additionalPrinterColumns: Array<{ jsonPath: string }> }> }).versions;
    for (const { jsonPath } of versions[0]?.additionalPrinterColumns ?? []) {
      if (jsonPath.startsWith('.metadata.')) continue;
      // `.status.conditions[?(@.type=="Ready")].reason`: a filter selects an item of the array.
      const steps = jsonPath.replace(/\[\?\(@\.[a-z]+=="[A-Za-z]+"\)\]/g, '.[]').split('.').slice(1);
      const declared = steps.reduce<JsonSchema | undefined>(
        (schema, name) => (name === '[]' ? (schema?.items as JsonSchema | undefined) : (schema?.properties as Record<string, JsonSchema> | undefined)?.[name]),
        root,
      );
      expect(declared, jsonPath).toBeDefined();
    }
  });
});
