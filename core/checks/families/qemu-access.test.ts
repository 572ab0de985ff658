import { chmod, chown } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHost } from '../../../test/lab/hosts/build-host.ts';
import { tempDir } from '../../../test/lab/hosts/paths.ts';
import { probeHost } from '../probe-host.ts';
import { canOpenReadWrite, evaluateQemuAccess, type NodeAccessFacts } from './qemu-access.ts';


describe('canOpenReadWrite (uid/gid 107 by mode bits)', () => {
  it.each([
    [{ mode: 0o666, uid: 0, gid: 0 }, true],
    [{ mode: 0o600, uid: 0, gid: 0 }, false],
    [{ mode: 0o660, uid: 0, gid: 107 }, true],
    [{ mode: 0o600, uid: 107, gid: 0 }, true],
    // The owner class decides alone: an owner without rw is denied even if "other" has it.
    [{ mode: 0o066, uid: 107, gid: 0 }, false],
    [{ mode: 0o604, uid: 0, gid: 0 }, false],
  ])('%o → %s', (node, expected) => {
    expect(canOpenReadWrite(node, 107, 107)).toBe(expected);
  });
});

describe('qemu.access', () => {
  const present = (path: string, mode: number, uid = 0, gid = 0): NodeAccessFacts => ({ path, state: 'present', mode, uid, gid });

  it('passes either way (informational), naming the devices the modes keep from uid 107 without reporting a failure', () => {
    const result = evaluateQemuAccess({ kvm: present('dev/kvm', 0o660, 0, 36), tun: present('dev/net/tun', 0o666), 'vhost-net': { path: 'dev/vhost-net', state: 'missing' } });
    expect(result).toMatchObject({
      id: 'qemu.access',
      status: 'pass',
      message: "under KubeVirt QEMU (uid/gid 107) gets /dev/kvm through virt-handler's device plugin; the node's own modes admit only other users (/dev/kvm mode 0660, owner 0:36: not uid 107; /dev/net/tun mode 0666, owner 0:0: uid 107 too)",
      observed: { uid: 107, gid: 107, devices: [{ path: '/dev/kvm', mode: '0660', uid: 0, gid: 36, qemuCanOpen: false }, { path: '/dev/net/tun', mode: '0666', uid: 0, gid: 0, qemuCanOpen: true }] },
    });
    expect(result.hint).toMatch(/only matters to QEMU run outside KubeVirt/);
    expect(evaluateQemuAccess({ kvm: { path: 'dev/kvm', state: 'missing' }, tun: { path: 'dev/net/tun', state: 'missing' }, 'vhost-net': { path: 'dev/vhost-net', state: 'missing' } }).status).toBe('skip');
  });

  let dir = '';
  let remove = async () => {};
  beforeAll(async () => {
    ({ dir, remove } = await tempDir('qemu-access'));
  });
  afterAll(() => remove());

  it('reads mode, owner and group of the nodes as the host has them', async () => {
    const host = await buildHost(path.join(dir, 'metal'), 'intel-metal');
    await chmod(path.join(host.root, 'dev/kvm'), 0o660);
    await chown(path.join(host.root, 'dev/kvm'), 0, 107);
    await chmod(path.join(host.root, 'dev/vhost-net'), 0o600);
    const { deviceAccess } = await probeHost(host.root, { enabled: false });
    expect(deviceAccess).toEqual({
      kvm: { path: 'dev/kvm', state: 'present', mode: 0o660, uid: 0, gid: 107 },
      tun: { path: 'dev/net/tun', state: 'present', mode: 0o666, uid: 0, gid: 0 },
      'vhost-net': { path: 'dev/vhost-net', state: 'present', mode: 0o600, uid: 0, gid: 0 },
    });
    expect(evaluateQemuAccess(deviceAccess).message).toMatch(/gets \/dev\/vhost-net through virt-handler's device plugin/);
  });
});
