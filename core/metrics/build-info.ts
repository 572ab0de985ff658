import { Gauge, type Registry } from 'prom-client';
import { VIRTGATE_REVISION, VIRTGATE_VERSION } from '../package-info.ts';

export const BUILD_INFO_NAME = 'virtgate_build_info';

/**
 * `virtgate_build_info{version,revision} 1`, the info-metric convention: join it on `instance` to
 * see which build each agent and aggregator runs (`count by (version, revision) (virtgate_build_info)`).
 */
export function registerBuildInfo(registry: Registry, build: { version: string; revision: string } = { version: VIRTGATE_VERSION, revision: VIRTGATE_REVISION }): void {
  new Gauge({
    name: BUILD_INFO_NAME,
    help: 'Always 1; version (package.json) and revision (the REVISION build argument, or "unknown") of the running virtgate.',
    labelNames: ['version', 'revision'],
    registers: [registry],
  }).set({ version: build.version, revision: build.revision }, 1);
}
