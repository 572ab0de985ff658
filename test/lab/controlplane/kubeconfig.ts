import { writeFile } from 'node:fs/promises';
import { stringify } from 'yaml';

export type KubeconfigUser = { clientCertificate: string; clientKey: string } | { token: string };

/** Writes a kubeconfig for one user against one API server. */
export async function writeKubeconfig(file: string, server: string, caFile: string, user: KubeconfigUser, name = 'virtgate-test'): Promise<string> {
  const userEntry =
    'token' in user ? { token: user.token } : { 'client-certificate': user.clientCertificate, 'client-key': user.clientKey };
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'virtgate-test', cluster: { server, 'certificate-authority': caFile } }],
    users: [{ name, user: userEntry }],
    contexts: [{ name, context: { cluster: 'virtgate-test', user: name } }],
    'current-context': name,
  };
  await writeFile(file, stringify(config), { mode: 0o600 });
  return file;
}
