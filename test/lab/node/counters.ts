import { execa } from 'execa';

export interface EgressCounters {
  /** Packets from the pod range dropped on their way out through another interface (filter FORWARD). */
  egressDropped: number;
  /** Pod packets addressed outside the pod and Service ranges (mangle PREROUTING on the bridge). */
  outsideAttempts: number;
  /** Every pod packet the attempt chain saw: proof that it sits in the pods' path. */
  podPacketsSeen: number;
}

/** Packet count of the rule of `chain` whose line matches `pattern`, from `iptables -L -v -x`. */
async function packets(table: string, chain: string, pattern: RegExp): Promise<number> {
  const { stdout } = await execa('iptables', ['-t', table, '-L', chain, '-v', '-x', '-n']);
  const line = stdout.split('\n').find((l) => pattern.test(l));
  if (!line) throw new Error(`no rule matching ${pattern} in ${table}/${chain}:\n${stdout}`);
  return Number(line.trim().split(/\s+/)[0]);
}

/** The counters host-network.sh installed before any pod started. */
export async function egressCounters(): Promise<EgressCounters> {
  return {
    egressDropped: await packets('filter', 'VIRTGATE-NODE-EGRESS', /virtgate-node: pod egress/),
    outsideAttempts: await packets('mangle', 'VIRTGATE-NODE-ATTEMPT', /virtgate-node: pod packet to an outside address/),
    podPacketsSeen: await packets('mangle', 'PREROUTING', /VIRTGATE-NODE-ATTEMPT/),
  };
}
