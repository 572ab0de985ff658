import { z } from 'zod';
import { DEFAULT_POLICY } from '../../core/checks/policy.ts';
import { DEFAULT_VHV_OPTIONS } from '../../core/checks/families/vhv.ts';
import { jsonSetting, vhvTimeoutSetting } from '../../core/settings/common.ts';
import { majorMinor } from '../../core/settings/parsers.ts';
import { type ConfigOf, defineSettings, setting } from '../../core/settings/table.ts';

/** `virtgate check` settings. */
export const CHECK_SETTINGS = {
  hostRoot: setting({ flag: '--host-root <dir>', help: 'read the host under this directory', schema: z.string().min(1), default: '/' }),
  json: jsonSetting('print the verdict as JSON'),
  policy: {
    allowEmulation: setting({
      flag: '--allow-emulation',
      help: 'count "emulation" (no KVM, KubeVirt useEmulation) as ready',
      schema: z.boolean(),
      default: DEFAULT_POLICY.allowEmulation,
    }),
    minKernel: setting({ flag: '--min-kernel <major.minor>', help: 'kernels below this fail', schema: z.string(), parse: majorMinor, default: DEFAULT_POLICY.minKernel }),
  },
  vhv: {
    output: setting({
      flag: '--vhv-output <file>',
      help: 'evaluate a recorded `virt-host-validate qemu` output instead of running it',
      schema: z.string().optional(),
      conflicts: ['vhv'],
    }),
    enabled: setting({ flag: '--no-vhv', help: 'leave virt-host-validate out', schema: z.boolean(), default: true }),
    command: setting({ flag: '--vhv-command <path>', help: 'the virt-host-validate executable', schema: z.string().min(1), default: DEFAULT_VHV_OPTIONS.command }),
    timeoutSeconds: vhvTimeoutSetting,
  },
  kvmRun: setting({ flag: '--no-kvm-run', help: 'do not run the tiny KVM guest (check kvm.run)', schema: z.boolean(), default: true }),
};

export const checkSettings = defineSettings(CHECK_SETTINGS);

export type CheckSettings = ConfigOf<typeof CHECK_SETTINGS>;
