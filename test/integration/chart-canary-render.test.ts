/**
 * The canary's part of the chart, rendered by the real helm: nothing of it without canary.enabled
 * (it creates VMs in the user's cluster, so it is off by default); with it, its objects, named
 * after the release and in the namespaces the values say; values.schema.json and the templates
 * refuse values that cannot work, with a message that names them.
 */
import type { V1CronJob, V1Namespace, V1ValidatingAdmissionPolicy } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { GUEST_MEMORY } from '../../canary/vmi.ts';
import { CHART_DIR, findManifest, helm, type Manifest, renderChart } from '../lab/chart/helm.ts';
import { useControlPlane } from '../lab/controlplane/client.ts';

const cp = useControlPlane();
const render = (args: string[] = []) => renderChart(cp.binDir, args);
const names = (objects: Manifest[]) => objects.map((o) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`);

/** Whether an object is the canary's, by anything that could say so. */
const isCanary = (object: Manifest) =>
  object.metadata.labels?.['app.kubernetes.io/component'] === 'canary' || /canary/.test(object.metadata.name) || object.metadata.namespace === 'virtgate-canary';

describe('the canary in the chart', () => {
  it('renders nothing of the canary by default, nor with canary.enabled=false', async () => {
    for (const args of [[], ['--set', 'canary.enabled=false']]) {
      const objects = await render(args);
      expect(names(objects.filter(isCanary)), args.join(' ')).toEqual([]);
      // Nor does any other object grant or name the canary's identity.
      expect(JSON.stringify(objects)).not.toMatch(/virtgate-canary|-canary"/);
    }
  });

  it('with canary.enabled: its namespace, ServiceAccount, roles and policy, in the namespaces the values name', async () => {
    const objects = await render(['--set', 'canary.enabled=true', '--set', 'canary.namespace=vm-canaries', '--set', 'fullnameOverride=vg']);
    const canary = names(objects.filter((o) => o.metadata.labels?.['app.kubernetes.io/component'] === 'canary' && o.kind !== 'CronJob'));
    expect(canary.sort()).toEqual(
      [
        'Namespace//vm-canaries',
        'ServiceAccount/virtgate/vg-canary',
        'ClusterRole//vg-canary',
        'ClusterRoleBinding//vg-canary',
        'Role/vm-canaries/vg-canary',
        'RoleBinding/vm-canaries/vg-canary',
        'ValidatingAdmissionPolicy//vg-canary-nodevalidation',
        'ValidatingAdmissionPolicyBinding//vg-canary-nodevalidation',
        'ValidatingAdmissionPolicy//vg-canary-vmi',
        'ValidatingAdmissionPolicyBinding//vg-canary-vmi',
      ].sort(),
    );
    const namespace = findManifest<V1Namespace>(objects, 'Namespace', 'vm-canaries');
    expect(namespace.metadata?.labels?.['pod-security.kubernetes.io/enforce']).toBe('privileged');
    const policy = findManifest<V1ValidatingAdmissionPolicy>(objects, 'ValidatingAdmissionPolicy', 'vg-canary-nodevalidation');
    expect(policy.spec?.matchConditions).toEqual([{ name: 'virtgate-canary', expression: "request.userInfo.username == 'system:serviceaccount:virtgate:vg-canary'" }]);
    expect(policy.spec?.failurePolicy).toBe('Fail');
    expect(policy.spec?.validations?.every((validation) => validation.reason === 'Forbidden')).toBe(true);
  });

  it("the VMI policy holds the CronJob's own --disk-image, the prefix's taint and the canary's guest memory, as CEL string literals", async () => {
    const cases: Array<[string, string[], string]> = [
      ['by tag', ['--set', 'canary.diskImage.tag=1.2.3'], 'ghcr.io/virtgate/canary-disk:1.2.3'],
      ['by digest, another registry', ['--set', 'canary.diskImage.registry=registry.example:5000', '--set', `canary.diskImage.digest=sha256:${'a'.repeat(64)}`], `registry.example:5000/virtgate/canary-disk@sha256:${'a'.repeat(64)}`],
      // A quote in a value cannot end the CEL literal early.
      ["a repository with a quote", ['--set', "canary.diskImage.repository=some'one/disk", '--set', 'canary.diskImage.tag=v1'], "ghcr.io/some'one/disk:v1"],
    ];
    for (const [what, args, image] of cases) {
      const objects = await render(['--set', 'canary.enabled=true', '--set', 'prefix=vg.example.com', '--set', 'fullnameOverride=vg', ...args]);
      const cronJob = findManifest<V1CronJob>(objects, 'CronJob', 'vg-canary');
      expect(cronJob.spec?.jobTemplate.spec?.template.spec?.containers[0]?.args, what).toContain(`--disk-image=${image}`);
      const policy = findManifest<V1ValidatingAdmissionPolicy>(objects, 'ValidatingAdmissionPolicy', 'vg-canary-vmi');
      const expressions = (policy.spec?.validations ?? []).map((validation) => validation.expression);
      const literal = `'${image.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
      expect(expressions.filter((expression) => expression.includes('containerDisk.image')), what).toEqual([expect.stringContaining(`== ${literal}`)]);
      expect(expressions.join('\n'), what).toContain("t.?key.orValue('') == 'vg.example.com/not-ready'");
      expect(expressions.join('\n'), what).toContain(`string(variables.requests.?memory.orValue('')) == '${GUEST_MEMORY}'`);
      expect(policy.spec?.matchConditions, what).toEqual([{ name: 'virtgate-canary', expression: "request.userInfo.username == 'system:serviceaccount:virtgate:vg-canary'" }]);
      expect(policy.spec?.failurePolicy, what).toBe('Fail');
      expect(policy.spec?.validations?.every((validation) => validation.reason === 'Forbidden'), what).toBe(true);
    }
  });

  it('with rbac.create=false: no canary role or binding, the ServiceAccount and the policy still', async () => {
    const objects = await render(['--set', 'canary.enabled=true', '--set', 'rbac.create=false']);
    const kinds = objects.filter(isCanary).map((o) => o.kind);
    expect(kinds.filter((kind) => /Role/.test(kind))).toEqual([]);
    expect(kinds).toEqual(expect.arrayContaining(['Namespace', 'ServiceAccount', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding']));
  });

  it('refuses values that cannot work, naming them', async () => {
    const cases: Array<[string, string[], string]> = [
      ['a schedule that is no cron', ['--set', 'canary.schedule=every 5 minutes'], "at '/canary/schedule'"],
      ['a cron with four fields', ['--set', 'canary.schedule=*/30 * * *'], "at '/canary/schedule'"],
      ['no VM at once', ['--set', 'canary.maxVmis=0'], "at '/canary/maxVmis'"],
      ['a boot timeout that is no duration', ['--set', 'canary.bootTimeout=soon'], "at '/canary/bootTimeout'"],
      ['alerting after zero runs', ['--set', 'canary.alertAfterRuns=0'], "at '/canary/alertAfterRuns'"],
      ['a namespace that is no DNS label', ['--set', 'canary.namespace=VM_Canary'], "at '/canary/namespace'"],
      ['an unknown pull policy', ['--set', 'canary.diskImage.pullPolicy=Sometimes'], "at '/canary/diskImage/pullPolicy'"],
      ['a misspelt key', ['--set', 'canary.maxVMIs=3'], "at '/canary': additional properties 'maxVMIs' not allowed"],
      ['the release namespace as the canary namespace', ['--set', 'canary.enabled=true', '--set', 'canary.namespace=virtgate'], 'canary.namespace "virtgate" is the release namespace'],
      [
        "the workloads' namespace as the canary namespace",
        ['--set', 'canary.enabled=true', '--set', 'namespace.create=true', '--set', 'namespace.name=virtgate-system', '--set', 'canary.namespace=virtgate-system'],
        "canary.namespace \"virtgate-system\" is the namespace of virtgate's workloads",
      ],
    ];
    for (const [what, args, text] of cases) {
      const outcome = await helm(cp.binDir, ['template', 'virtgate', CHART_DIR, '--namespace', 'virtgate', ...args]);
      expect(outcome.code, what).not.toBe(0);
      expect(outcome.stderr, what).toContain(text);
    }
    // What the schema admits: the macros and a five-field cron with lists, ranges and steps.
    for (const schedule of ['@hourly', '0,30 8-18 * * 1-5', '*/10 * * * *']) {
      // --set-json: --set would split the value at its commas.
      const outcome = await helm(cp.binDir, ['template', 'virtgate', CHART_DIR, '--set', 'canary.enabled=true', '--set-json', `canary.schedule=${JSON.stringify(schedule)}`]);
      expect(outcome.code, `${schedule}: ${outcome.stderr}`).toBe(0);
    }
  });

  it('lints with the canary on (--strict)', async () => {
    const outcome = await helm(cp.binDir, ['lint', CHART_DIR, '--strict', '--set', 'canary.enabled=true']);
    expect(outcome.stdout).toContain('1 chart(s) linted, 0 chart(s) failed');
    expect(outcome.code).toBe(0);
  });
});
