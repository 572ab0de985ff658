import type { Plan } from './plan.ts';

/**
 * One output of the agent, in node-problem-detector's shape: write the part of the plan it owns,
 * when the plan says something changed, and nothing else. Deciding is the plan's job.
 */
export interface Exporter<Result = void> {
  apply(plan: Plan): Promise<Result>;
}
