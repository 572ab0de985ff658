import { z } from 'zod';
import { stringify } from 'yaml';
import { isRecord } from '../core/json.ts';
import { API_GROUP, API_VERSION, NODE_VALIDATION_KIND, NODE_VALIDATION_PLURAL } from '../core/kube/names.ts';
import { READY_CONDITION, storedNodeValidationSchema } from '../core/report/schema.ts';

/**
 * The NodeValidation CRD, built from the report schema (core/report/schema.ts). `npm run
 * generate:crd` (generate-crd.ts) writes it into the chart; crd.test.ts fails when the chart's copy
 * differs. Only the openAPIV3Schema comes from zod; names, scope, subresources and printer columns
 * are here.
 *
 * The chart ships it as a template, not in `crds/`: Helm installs `crds/` once and never upgrades
 * it, so a newer agent's report would meet an older schema. As a template, `helm upgrade` applies
 * it like any other object; `helm.sh/resource-policy: keep` stops `helm uninstall` from deleting it
 * (and with it every NodeValidation), and `crds.install=false` leaves it to whoever manages CRDs
 * (docs/install.md, "The NodeValidation CRD").
 */

export const CRD_FILE = 'charts/virtgate/templates/crds/nodevalidations.virtgate.io.yaml';

/** The template's first and last lines; between them the file is the CRD as plain YAML. */
export const TEMPLATE_OPEN = '{{- if .Values.crds.install }}';
export const TEMPLATE_CLOSE = '{{- end }}';

type JsonSchema = { [keyword: string]: unknown };

const HEADER = `# NodeValidation: one per Node (same name), written by that node's virtgate agent, garbage-
# collected with the Node through its owner reference. The report lives in \`status\`, behind the
# status subresource: the agent creates the object, then writes \`status\` through \`/status\`.
#
# A template (not in crds/) so that \`helm upgrade\` updates it; \`helm uninstall\` keeps it.
# GENERATED from core/report/schema.ts by \`npm run generate:crd\`: edit the schema, not this file.
`;

const isSchema: (value: unknown) => value is JsonSchema = isRecord;

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
    metadata: {
      name: `${NODE_VALIDATION_PLURAL}.${API_GROUP}`,
      labels: { 'app.kubernetes.io/name': 'virtgate' },
      // helm uninstall must not delete the CRD: that would delete every NodeValidation with it.
      annotations: { 'helm.sh/resource-policy': 'keep' },
    },
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
          subresources: { status: {} },
          additionalPrinterColumns: [
            { name: 'Ready', type: 'boolean', jsonPath: '.status.ready' },
            { name: 'Reason', type: 'string', jsonPath: `.status.conditions[?(@.type=="${READY_CONDITION}")].reason` },
            { name: 'Tier', type: 'string', jsonPath: '.status.tier' },
            { name: 'KVM', type: 'string', jsonPath: '.status.kvm' },
            { name: 'Kernel', type: 'string', jsonPath: '.status.kernel' },
            { name: 'VMBoot', type: 'string', jsonPath: '.status.vmBoot.reason', priority: 1 },
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
 * The CRD as plain YAML. YAML 1.1 rules, because Helm and kubectl read it with a YAML 1.1 parser:
 * the taint policy `off` must stay quoted there, or it becomes the boolean false.
 */
export function nodeValidationCrdYaml(): string {
  return `${HEADER}${stringify(nodeValidationCrd(), { version: '1.1', lineWidth: 0 })}`;
}

/** The chart's template: the plain YAML between the `crds.install` gate's two lines. */
export function nodeValidationCrdTemplate(): string {
  return `${TEMPLATE_OPEN}\n${nodeValidationCrdYaml()}${TEMPLATE_CLOSE}\n`;
}

/** The plain CRD YAML inside the chart's template (what the tests apply without Helm). */
export function crdYamlOfTemplate(template: string): string {
  return template
    .split('\n')
    .filter((line) => line !== TEMPLATE_OPEN && line !== TEMPLATE_CLOSE)
    .join('\n');
}
