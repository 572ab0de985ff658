import type { Logger } from 'pino';
import type { NodeApi } from '../../node-api.ts';
import type { Exporter } from '../exporter.ts';

/**
 * The NodeValidation report: created when missing (metadata and spec only: the API server drops
 * `status` from a create, the CRD having a status subresource), then its status written through
 * `/status`, key by key: every key of the agent's when a field that is news changed, or only its
 * timestamps when its heartbeat is due. The canary's `status.vmBoot` is never touched.
 */
export function reportExporter(api: NodeApi, log: Logger): Exporter {
  return {
    async apply({ report }) {
      if (report.create) await api.createNodeValidation(report.create);
      if (!report.write) return;
      if (report.write.whole && !report.create) log.info({ decision: 'report', changed: report.changed }, 'updating the NodeValidation');
      await api.patchNodeValidationStatus(report.write.operations);
    },
  };
}
