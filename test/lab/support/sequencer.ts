import { readFileSync } from 'node:fs';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** How a file asks for the node project's shared KubeVirt (test/lab/node/control.ts). */
const USES_SHARED_KUBEVIRT = /\buseKubevirt\(\)/;

/**
 * vitest's own order (projects one after another, slow or large files first), except that the
 * files that share the node project's KubeVirt (test/lab/kubevirt/shared.ts) run last in their
 * project, together: KubeVirt is installed by the first of them and removed at the project's end,
 * so it never runs beside a file that did not ask for it.
 */
export default class LabSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const projectRank = new Map<string, number>();
    for (const spec of sorted) if (!projectRank.has(spec.project.name)) projectRank.set(spec.project.name, projectRank.size);
    const rank = (spec: TestSpecification) => [projectRank.get(spec.project.name) ?? 0, usesSharedKubevirt(spec.moduleId) ? 1 : 0, sorted.indexOf(spec)] as const;
    return [...sorted].sort((a, b) => {
      const [ra, rb] = [rank(a), rank(b)];
      return ra[0] - rb[0] || ra[1] - rb[1] || ra[2] - rb[2];
    });
  }
}

function usesSharedKubevirt(file: string): boolean {
  try {
    return USES_SHARED_KUBEVIRT.test(readFileSync(file, 'utf8'));
  } catch {
    return false;
  }
}
