import { z } from 'zod';
import { stringify } from 'yaml';
import { API_GROUP, API_VERSION, NODE_VALIDATION_KIND, NODE_VALIDATION_PLURAL } from '../core/kube/names.ts';
import { storedNodeValidationSchema } from '../core/report/schema.ts';

/**
 * The NodeValidation CRD, built from the report schema (core/report/schema.ts). `npm run
 * generate:crd` (generate-crd.ts) writes it into the chart; crd.test.ts fails when the chart's copy
 * differs. Only the openAPIV3Schema comes from zod; names, scope and printer columns are here.
 */

export const CRD_FILE = 'charts/virtgate/crds/nodevalidations.virtgate.io.yaml';

type JsonSchema = { [keyword: string]: unknown };

const HEADER = `# NodeValidation: one per Node (same name), written by that node's virtgate agent, garbage-
# collected with the Node through its owner reference. The report lives in \`status\`; there is
# no status subresource, so the agent writes it in one request.
#
# GENERATED from core/report/schema.ts by \`npm run generate:crd\`: edit the schema, not this file.
`;

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * zod's JSON Schema, made acceptable to a kube-apiserver as a structural schema:
 *  - `additionalProperties` goes: a structural schema may not have it beside `properties`. The API
 *    server prunes unknown fields by itself, unless a schema keeps them with
 *    `x-kubernetes-preserve-unknown-fields` (set with `.meta()` in the report schema);
 *  - `pattern` goes beside `format: date-time`: the API server checks the format itself, and zod's
 *    long regular expression for it would be a second, slightly different rule.
 */
function structural(schema: JsonSchema): JsonSchema {
  const result: JsonSchema = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword === 'additionalProperties' && 'properties' in schema) continue;
    if (keyword === 'pattern' && schema.format === 'date-time') continue;
    if (keyword === 'properties' && isSchema(value)) {
      result[keyword] = Object.fromEntries(Object.entries(value).map(([name, property]) => [name, isSchema(property) ? structural(property) : property]));
    } else if (keyword === 'items' && isSchema(value)) {
      result[keyword] = structural(value);
    } else {
      result[keyword] = value;
    }
  }
  return result;
}

/**
 * The API server sets and checks apiVersion, kind and metadata itself, and a CRD may not restrict
 * metadata beyond name and generateName: the root declares them as bare types and requires only spec.
 */
const API_SERVER_OWNED = ['apiVersion', 'kind', 'metadata'];

export function nodeValidationOpenApiSchema(): JsonSchema {
  const { $schema: _dialect, ...generated } = z.toJSONSchema(storedNodeValidationSchema, { target: 'openapi-3.0' }) as JsonSchema;
  const root = structural(generated);
  const properties = root.properties as Record<string, JsonSchema>;
  return {
    ...root,
    required: (root.required as string[]).filter((name) => !API_SERVER_OWNED.includes(name)),
    properties: { ...properties, apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { type: 'object' } },
  };
}

export function nodeValidationCrd(): JsonSchema {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${NODE_VALIDATION_PLURAL}.${API_GROUP}`, labels: { 'app.kubernetes.io/name': 'virtgate' } },
    spec: {
      group: API_GROUP,
      scope: 'Cluster',
      names: {
        kind: NODE_VALIDATION_KIND,
        listKind: `${NODE_VALIDATION_KIND}List`,
        plural: NODE_VALIDATION_PLURAL,
        singular: NODE_VALIDATION_KIND.toLowerCase(),
        shortNames: ['nv'],
        categories: ['virtgate'],
      },
      versions: [
        {
          name: API_VERSION,
          served: true,
          storage: true,
          additionalPrinterColumns: [
            { name: 'Ready', type: 'boolean', jsonPath: '.status.ready' },
            { name: 'Tier', type: 'string', jsonPath: '.status.tier' },
            { name: 'KVM', type: 'string', jsonPath: '.status.kvm' },
            { name: 'Kernel', type: 'string', jsonPath: '.status.kernel' },
            { name: 'Heartbeat', type: 'date', jsonPath: '.status.heartbeatAt', priority: 1 },
            { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
          ],
          schema: { openAPIV3Schema: nodeValidationOpenApiSchema() },
        },
      ],
    },
  };
}

/**
 * The chart file's text. YAML 1.1 rules, because Helm and kubectl read it with a YAML 1.1 parser:
 * the taint policy `off` must stay quoted there, or it becomes the boolean false.
 */
export function nodeValidationCrdYaml(): string {
  return `${HEADER}${stringify(nodeValidationCrd(), { version: '1.1', lineWidth: 0 })}`;
}
