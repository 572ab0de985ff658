import type { HostFacts } from '../../core/checks/registry.ts';
import type { Verdict } from '../../core/checks/verdict.ts';

/** One probe's outcome, as the agent hands it to the publisher. */
export interface ProbeOutcome {
  verdict: Verdict;
  facts: HostFacts;
  probedAt: Date;
}
