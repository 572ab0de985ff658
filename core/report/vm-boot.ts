import { z } from 'zod';

/**
 * Why the canary's last VM on a node booted or not, one reason per layer it got through
 * (docs/canary.md): the scheduler, the virt-launcher pod, KubeVirt starting the domain, the guest.
 */
export const VM_BOOT_REASONS = [
  'Booted', // the guest printed the run's nonce on its serial console
  'NotScheduled', // the launcher pod was not scheduled within the bound (the scheduler's reason)
  'LauncherFailed', // the virt-launcher pod failed or a container could not start (its message)
  'NotStarted', // the launcher ran but KubeVirt never reported the VMI Running within the bound
  'VmiFailed', // KubeVirt set the VMI to Failed (its reason)
  'GuestSilent', // the VMI ran, but the guest never printed the nonce within the bound (console tail)
  'VmiDeleted', // someone else deleted the VMI mid-run
] as const;
export type VmBootReason = (typeof VM_BOOT_REASONS)[number];

/** Seconds from the VMI's creation to each step the canary saw (absent: not reached). */
export const vmBootStepsSchema = z
  .object({
    scheduled: z.number().min(0).describe('The launcher pod was bound to the node.'),
    launcherRunning: z.number().min(0).describe("The launcher pod's compute container ran."),
    vmiRunning: z.number().min(0).describe('KubeVirt reported the VMI Running.'),
    guestMarker: z.number().min(0).describe("The guest's marker with this run's nonce appeared on its serial console."),
  })
  .partial();
