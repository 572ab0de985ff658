import { KubeConfig } from '@kubernetes/client-node';
import { inject } from 'vitest';
import { AuditLog } from './audit.ts';
import type { ControlAction } from './control-server.ts';

/** What an integration test gets: the shared control plane, its admin, its audit log, its faults. */
export function useControlPlane() {
  const info = inject('controlPlane');
  if (!info) throw new Error('no control plane: run this file in the "integration" or "faults" vitest project');
  return {
    ...info,
    audit: new AuditLog(info.auditLog),
    adminConfig(): KubeConfig {
      const kc = new KubeConfig();
      kc.loadFromFile(info.adminKubeconfig);
      return kc;
    },
    async control(action: ControlAction): Promise<void> {
      const res = await fetch(`${info.controlUrl}/${action}`, { method: 'POST' });
      if (!res.ok) throw new Error(`control-plane action ${action} failed: ${await res.text()}`);
    },
  };
}

export type TestControlPlane = ReturnType<typeof useControlPlane>;
