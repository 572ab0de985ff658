/**
 * The hardware inventory each fixture host must give, written by hand from what each host is (its
 * profile in profiles/profiles.ts): its own firmware names, CPU and memory, never those of the
 * machine the tests run on. test/hosts/inventory.test.ts holds collectInventory under each host
 * root to it, the agent and demo tests the published reports.
 */
import type { Inventory } from '../../../core/inventory/schema.ts';
import type { HostProfile } from './profiles/profiles.ts';

const SAPPHIRE_RAPIDS = 'Intel Xeon® Platinum 8488C';
const CASCADE_LAKE = 'Intel Xeon® Platinum 8259CL';
const GENOA = 'AMD EPYC 9654 96-Core Processor';

/** One socket, one thread per core (as every profile's cpuinfo); memory as MemTotal in KiB. */
function host(manufacturer: string, model: string, brand: string, cores: number, memTotalKiB: number, baseSpeedGHz?: number): Inventory {
  return {
    collected: true,
    system: { manufacturer, model },
    cpu: { brand, sockets: 1, cores, threads: cores, ...(baseSpeedGHz !== undefined ? { baseSpeedGHz } : {}) },
    memoryTotalBytes: memTotalKiB * 1024,
  };
}

export const EXPECTED_INVENTORIES: Record<HostProfile, Inventory> = {
  'intel-metal': host('Dell Inc.', 'PowerEdge R760', SAPPHIRE_RAPIDS, 4, 527_543_264),
  'amd-metal': host('Supermicro', 'AS -2125HS-TNR', GENOA, 4, 791_372_112),
  'nested-vm': host('QEMU', 'Standard PC (Q35 + ICH9, 2009)', SAPPHIRE_RAPIDS, 2, 16_374_212),
  'no-vmx': host('Google', 'Google Compute Engine', SAPPHIRE_RAPIDS, 2, 8_148_064),
  'no-tun': host('OpenStack Foundation', 'OpenStack Nova', SAPPHIRE_RAPIDS, 2, 4_025_932),
  'kvm-enodev': host('HPE', 'ProLiant DL380 Gen11', SAPPHIRE_RAPIDS, 4, 263_596_100),
  'kvm-regular-file': host('Lenovo', 'ThinkSystem SR650 V3', SAPPHIRE_RAPIDS, 4, 395_597_780),
  rhel9: host('Dell Inc.', 'PowerEdge R660', SAPPHIRE_RAPIDS, 4, 263_608_444),
  al2023: host('Amazon EC2', 'm7i.metal-24xl', SAPPHIRE_RAPIDS, 4, 392_894_212),
  // arm64 cpuinfo names no model, and the library would name this machine's: not read.
  'arm64-metal': host('Amazon EC2', 'c7g.metal', '', 4, 130_343_468),
  'ec2-vm': host('Amazon EC2', 'm5.large', CASCADE_LAKE, 2, 7_922_468, 2.5),
  'ec2-metal': host('Amazon EC2', 'm5.metal', CASCADE_LAKE, 4, 395_880_016, 2.5),
  'arm64-vm': host('Amazon EC2', 'c7g.large', '', 2, 3_914_944),
  'kvm-pvm': host('QEMU', 'Standard PC (i440FX + PIIX, 1996)', SAPPHIRE_RAPIDS, 2, 8_137_916),
  'gpu-vfio': host('Dell Inc.', 'PowerEdge R760xa', SAPPHIRE_RAPIDS, 4, 527_561_920),
  'gpu-shared-group': host('Supermicro', 'SYS-740A-T', SAPPHIRE_RAPIDS, 4, 263_714_332),
  'pci-500': host('Dell Inc.', 'PowerEdge R760', SAPPHIRE_RAPIDS, 4, 1_056_514_332),
  'sev-snp-metal': host('Supermicro', 'AS -2125HS-TNR', GENOA, 4, 791_359_020),
  'tdx-metal': host('Intel Corporation', 'D50DNP', SAPPHIRE_RAPIDS, 4, 527_521_844),
};
