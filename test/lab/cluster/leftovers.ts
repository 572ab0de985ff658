import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { execa } from 'execa';
import { CLUSTER_LAYOUT } from './layout.ts';

/**
 * What the cluster left on this machine after its stop, read independently of cleanup.sh: network
 * namespaces, links, routes, iptables jumps, mounts, cgroups, processes and its directory. Empty
 * when the stop removed everything.
 */
export async function clusterLeftovers(): Promise<string[]> {
  const found: string[] = [];
  const { root, bridge, podRange, serviceRange, nodes } = CLUSTER_LAYOUT;
  const netns = (await execa('ip', ['netns', 'list'])).stdout;
  for (const node of nodes) if (new RegExp(`^${node.netns}\\b`, 'm').test(netns)) found.push(`network namespace ${node.netns}`);
  const links = (await execa('ip', ['-o', 'link', 'show'])).stdout;
  for (const name of [bridge, ...nodes.map((n) => n.hostVeth)]) if (links.includes(` ${name}:`) || links.includes(` ${name}@`)) found.push(`link ${name}`);
  const routes = (await execa('ip', ['route', 'show'])).stdout.split('\n');
  const rangePrefixes = [podRange, serviceRange].map((range) => range.split('.').slice(0, 2).join('.') + '.');
  for (const route of routes) if (rangePrefixes.some((prefix) => route.includes(prefix))) found.push(`route ${route.trim()}`);
  const forward = (await execa('iptables', ['-S', 'FORWARD'])).stdout;
  if (forward.includes('VGCL-')) found.push('iptables FORWARD jump to VGCL-HOST-EGRESS');
  for (const line of readFileSync('/proc/self/mountinfo', 'utf8').split('\n')) if (line.includes(`${root}/`) || line.includes(` ${root} `)) found.push(`mount ${line.split(' ')[4]}`);
  for (const hierarchy of readdirSync('/sys/fs/cgroup')) if (existsSync(`/sys/fs/cgroup/${hierarchy}/virtgate-cluster`)) found.push(`cgroup ${hierarchy}/virtgate-cluster`);
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    const cmdline = (() => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      } catch {
        return '';
      }
    })();
    if (cmdline.includes(`${root}/`) && !cmdline.includes('vitest')) found.push(`process ${pid}: ${cmdline.slice(0, 120)}`);
  }
  if (existsSync(root)) found.push(`directory ${root}`);
  return found;
}
