import type { CpuFacts, Observation } from '../facts.ts';
import { describeRead, readHostFile } from '../files.ts';
import { parseCpuinfo } from '../parse/cpuinfo.ts';

export async function probeCpu(hostRoot: string): Promise<Observation<CpuFacts>> {
  const read = await readHostFile(hostRoot, 'proc/cpuinfo');
  if (read.state !== 'ok') return { state: 'unknown', reason: describeRead('proc/cpuinfo', read) };
  return parseCpuinfo(read.text);
}
