import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { AgentMetrics } from '../../agent/metrics.ts';
import { revisionOf, VIRTGATE_VERSION } from '../package-info.ts';
import { registerBuildInfo } from './build-info.ts';

describe('virtgate_build_info', () => {
  it('is 1 with the version and revision as labels', async () => {
    const registry = new Registry();
    registerBuildInfo(registry, { version: '1.2.3', revision: 'abc123' });
    expect(await registry.metrics()).toContain('virtgate_build_info{version="1.2.3",revision="abc123"} 1');
  });

  it('takes the revision the image was built with, or "unknown"', () => {
    expect(revisionOf('0123456789abcdef0123456789abcdef01234567\n')).toBe('0123456789abcdef0123456789abcdef01234567');
    expect(revisionOf('v0.1.0-3-gabc')).toBe('v0.1.0-3-gabc');
    for (const bad of [undefined, '', '  ', 'a b', 'x"y', 'a'.repeat(65)]) expect(revisionOf(bad), String(bad)).toBe('unknown');
  });

  it('comes with the agent\'s own series, its node label and the process metrics', async () => {
    const text = await new AgentMetrics('n1').registry.metrics();
    expect(text).toContain(`virtgate_build_info{version="${VIRTGATE_VERSION}",revision="`);
    expect(text).toMatch(/^virtgate_build_info\{[^}]*node="n1"[^}]*\} 1$/m);
    expect(text).toMatch(/^process_resident_memory_bytes\{node="n1"\} \d+/m);
    expect(text).toContain('# TYPE virtgate_agent_api_writes_total counter');
  });
});
