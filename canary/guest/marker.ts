/**
 * What the canary guest prints on its serial console (canary/guest): one line
 * `VIRTGATE-CANARY-OK <32 lowercase hex digits>`, the 16 bytes of the VMI's
 * `spec.domain.firmware.uuid` as the guest reads them from QEMU's fw_cfg. The canary sets a fresh
 * random UUID per VMI, so a console left from an earlier run cannot show this run's nonce.
 */
export const CANARY_MARKER_PREFIX = 'VIRTGATE-CANARY-OK';

/** The containerDisk's disk file, KubeVirt's layout (/disk/<name>.img). */
export const CANARY_DISK_PATH = '/disk/canary.img';

/** The nonce as the guest prints it: the UUID's hex digits, lowercase, without dashes. */
export function nonceDigits(uuid: string): string {
  return uuid.replaceAll('-', '').toLowerCase();
}

/** The exact marker line for a VMI whose firmware UUID is `uuid`. */
export function markerLine(uuid: string): string {
  return `${CANARY_MARKER_PREFIX} ${nonceDigits(uuid)}`;
}

/** True when the console text holds this run's marker (not merely some marker). */
export function consoleShowsNonce(consoleText: string, uuid: string): boolean {
  return consoleText.split(/\r?\n/).some((line) => line.trim() === markerLine(uuid));
}
