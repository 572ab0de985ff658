import type { V1CronJob } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { jobFromCronJob, summaryIn, withFlags } from './canary-job.ts';

describe('withFlags', () => {
  it('replaces a flag given as --flag=value or --flag value in place, appends a new one, and sets a boolean flag alone', () => {
    expect(withFlags(['canary', '--boot-timeout=3m', '--max-vmis', '3'], { '--boot-timeout': '5s', '--max-vmis': '1', '--json': '' })).toEqual([
      'canary', '--boot-timeout=5s', '--max-vmis', '1', '--json',
    ]);
    expect(withFlags(['canary', '--json'], { '--json': '' })).toEqual(['canary', '--json']);
  });
});

describe('jobFromCronJob', () => {
  const cronJob: V1CronJob = {
    metadata: { name: 'virtgate-canary', namespace: 'ns', uid: 'u1' },
    spec: {
      schedule: '*/30 * * * *',
      jobTemplate: {
        metadata: { labels: { app: 'c' } },
        spec: { backoffLimit: 2, template: { spec: { serviceAccountName: 'virtgate-canary', containers: [{ name: 'canary', args: ['canary', '--boot-timeout=3m'] }] } } },
      },
    },
  };

  it('keeps the template (ServiceAccount, labels), owns the Job by the CronJob as kubectl does, one run, the flags set', () => {
    const job = jobFromCronJob(cronJob, 'run-1', { '--json': '' });
    expect(job.metadata).toMatchObject({
      name: 'run-1',
      namespace: 'ns',
      labels: { app: 'c' },
      annotations: { 'cronjob.kubernetes.io/instantiate': 'manual' },
      ownerReferences: [{ kind: 'CronJob', name: 'virtgate-canary', uid: 'u1', controller: true }],
    });
    expect(job.spec?.backoffLimit).toBe(0);
    expect(job.spec?.template.spec?.serviceAccountName).toBe('virtgate-canary');
    expect(job.spec?.template.spec?.containers[0]?.args).toEqual(['canary', '--boot-timeout=3m', '--json']);
    // The CronJob itself is left as it was.
    expect(cronJob.spec?.jobTemplate.spec?.template.spec?.containers[0]?.args).toEqual(['canary', '--boot-timeout=3m']);
  });
});

describe('summaryIn', () => {
  it('finds the run summary among JSON log lines, pretty-printed or not', () => {
    const summary = { runId: 'r1', startedAt: 't', picked: [], skipped: [{ node: 'n', reason: 'not ready' }], results: [] };
    const log = `{"level":30,"msg":"start"}\n${JSON.stringify(summary, null, 2)}\n{"level":30,"msg":"done"}\n`;
    expect(summaryIn(log)).toEqual(summary);
    expect(summaryIn(`{"level":30}\n${JSON.stringify(summary)}`)).toEqual(summary);
    expect(summaryIn('{"level":30}\nnot json')).toBeUndefined();
  });

  it('finds it when stderr log records landed between its lines (the kubelet merges the two pipes line by line)', () => {
    const summary = { runId: 'r1', startedAt: 't', picked: [{ node: 'n', nodeClass: 'c' }], skipped: [], results: [] };
    const lines = JSON.stringify(summary, null, 2).split('\n');
    const record = '{"level":30,"time":"2026-12-06T13:40:00.000Z","program":"canary","msg":"deleted VMI virtgate-canary-n"}';
    const log = [...lines.slice(0, 3), record, ...lines.slice(3, 5), record, ...lines.slice(5)].join('\n');
    expect(summaryIn(log)).toEqual(summary);
    // Without its records the same log must still hold a whole document: only the records go.
    expect(summaryIn([...lines.slice(0, 3), 'not a record', ...lines.slice(3)].join('\n'))).toBeUndefined();
  });
});
