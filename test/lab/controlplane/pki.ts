import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface Pki {
  caCert: string;
  caKey: string;
  serverCert: string;
  serverKey: string;
  adminCert: string;
  adminKey: string;
  serviceAccountKey: string;
  serviceAccountPub: string;
}

async function openssl(args: string[], cwd: string): Promise<void> {
  await run('openssl', args, { cwd });
}

/**
 * Three years: `npm run test:calendar` runs tests with the clock moved two years ahead, and
 * the virtgate processes it starts must still trust the API server's certificate. The CA is thrown
 * away with the run.
 */
const CERT_DAYS = 1100;

/**
 * A throwaway CA, a serving cert for 127.0.0.1 (and `serverIps`), an admin client cert
 * (system:masters) and SA keys.
 */
export async function createPki(dir: string, serverIps: string[] = []): Promise<Pki> {
  const file = (name: string) => path.join(dir, name);
  const extraIps = serverIps.map((ip) => `,IP:${ip}`).join('');
  await openssl(['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', 'ca.key'], dir);
  await openssl(['req', '-x509', '-new', '-key', 'ca.key', '-sha256', '-days', String(CERT_DAYS), '-subj', '/CN=virtgate-test-ca', '-out', 'ca.crt'], dir);

  await writeFile(
    file('server.ext'),
    `subjectAltName=IP:127.0.0.1${extraIps},DNS:localhost,DNS:kubernetes,DNS:kubernetes.default.svc\nextendedKeyUsage=serverAuth\n`,
  );
  await writeFile(file('client.ext'), 'extendedKeyUsage=clientAuth\n');
  for (const [name, subject, ext] of [
    ['server', '/CN=kube-apiserver', 'server.ext'],
    ['admin', '/O=system:masters/CN=virtgate-test-admin', 'client.ext'],
  ] as const) {
    await openssl(['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', `${name}.key`], dir);
    await openssl(['req', '-new', '-key', `${name}.key`, '-subj', subject, '-out', `${name}.csr`], dir);
    await openssl(
      ['x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-days', String(CERT_DAYS), '-sha256', '-extfile', ext, '-out', `${name}.crt`],
      dir,
    );
  }
  await openssl(['genrsa', '-out', 'sa.key', '2048'], dir);
  await openssl(['rsa', '-in', 'sa.key', '-pubout', '-out', 'sa.pub'], dir);
  return {
    caCert: file('ca.crt'),
    caKey: file('ca.key'),
    serverCert: file('server.crt'),
    serverKey: file('server.key'),
    adminCert: file('admin.crt'),
    adminKey: file('admin.key'),
    serviceAccountKey: file('sa.key'),
    serviceAccountPub: file('sa.pub'),
  };
}

/**
 * One more key pair signed by the CA of `createPki(dir)`: a client cert for `subject`
 * (`/O=group/CN=user`), or a serving cert when `serverIps` are given. Returns [cert, key].
 */
export async function issueCertificate(dir: string, name: string, subject: string, serverIps?: string[]): Promise<[string, string]> {
  const ext = path.join(dir, `${name}.ext`);
  await writeFile(
    ext,
    serverIps ? `subjectAltName=${serverIps.map((ip) => `IP:${ip}`).join(',')}\nextendedKeyUsage=serverAuth\n` : 'extendedKeyUsage=clientAuth\n',
  );
  await openssl(['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', `${name}.key`], dir);
  await openssl(['req', '-new', '-key', `${name}.key`, '-subj', subject, '-out', `${name}.csr`], dir);
  await openssl(
    ['x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-days', String(CERT_DAYS), '-sha256', '-extfile', ext, '-out', `${name}.crt`],
    dir,
  );
  return [path.join(dir, `${name}.crt`), path.join(dir, `${name}.key`)];
}
