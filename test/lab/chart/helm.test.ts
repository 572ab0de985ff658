import { describe, expect, it } from 'vitest';
import { helmComplaints } from './helm.ts';

// A line helm printed in CI while `helm uninstall` waited for the prune hook (paths shortened).
const WATCH_ENDED =
  'I1206 13:38:35.361315   29084 reflector.go:664] "Warning: watch ended with error" reflector="k8s.io/client-go@v0.37.2/tools/cache/reflector.go:343" ' +
  'type="rbac.authorization.k8s.io/v1, Kind=ClusterRoleBinding" err="an error on the server (\\"unable to decode an event from the watch stream: context canceled\\") has prevented the request from succeeding"';

describe('helmComplaints', () => {
  it('drops client-go info lines and nothing else', () => {
    expect(helmComplaints('')).toBe('');
    expect(helmComplaints(`${WATCH_ENDED}\n`)).toBe('');
    expect(helmComplaints(`${WATCH_ENDED}\nError: uninstall: timed out waiting for the condition\n`)).toBe('Error: uninstall: timed out waiting for the condition');
  });

  it('keeps klog warnings and errors, and a line that only mentions an info line', () => {
    const warning = WATCH_ENDED.replace(/^I/, 'W');
    const error = WATCH_ENDED.replace(/^I/, 'E');
    expect(helmComplaints(warning)).toBe(warning);
    expect(helmComplaints(error)).toBe(error);
    expect(helmComplaints(`Error: ${WATCH_ENDED}`)).toBe(`Error: ${WATCH_ENDED}`);
  });
});
