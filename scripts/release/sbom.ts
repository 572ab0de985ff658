/**
 * The SBOM of a release image, as an SPDX 2.3 JSON document: every Debian package dpkg has
 * installed in the image's root and every npm package npm installed under /app. Pure: the
 * caller reads the files and passes the date.
 */
import { z } from 'zod';

export interface SbomPackage {
  ecosystem: 'deb' | 'npm';
  name: string;
  version: string;
  /** Debian's architecture (amd64, all); npm packages have none. */
  arch?: string;
  license?: string;
}

/** dpkg's status database (var/lib/dpkg/status): the packages whose Status is "install ok installed". */
export function debianPackages(statusText: string): SbomPackage[] {
  const packages: SbomPackage[] = [];
  for (const stanza of statusText.split(/\n\s*\n/)) {
    const fields = new Map<string, string>();
    for (const line of stanza.split('\n')) {
      const match = /^([A-Za-z0-9-]+):\s*(.*)$/.exec(line);
      if (match?.[1] !== undefined && match[2] !== undefined) fields.set(match[1], match[2]);
    }
    const name = fields.get('Package');
    const version = fields.get('Version');
    if (name && version && fields.get('Status') === 'install ok installed') {
      packages.push({ ecosystem: 'deb', name, version, arch: fields.get('Architecture') ?? 'all' });
    }
  }
  return packages.sort((a, b) => a.name.localeCompare(b.name));
}

const installedTree = z.object({
  packages: z.record(z.string(), z.object({ version: z.string().optional(), license: z.string().optional(), link: z.boolean().optional() })),
});

/**
 * npm's record of what it installed (node_modules/.package-lock.json, written by `npm ci`): one
 * entry per installed copy, keyed by its path, so a package installed twice at one version is
 * listed once.
 */
export function npmPackages(hiddenLockText: string): SbomPackage[] {
  const tree = installedTree.parse(JSON.parse(hiddenLockText));
  const seen = new Map<string, SbomPackage>();
  for (const [where, entry] of Object.entries(tree.packages)) {
    const name = where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length);
    if (!where.includes('node_modules/') || entry.link || !entry.version) continue;
    seen.set(`${name}@${entry.version}`, { ecosystem: 'npm', name, version: entry.version, ...(entry.license ? { license: entry.license } : {}) });
  }
  return [...seen.values()].sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version));
}

/** Package URL (purl) of a package: how scanners match it against advisories. */
export function purlOf(p: SbomPackage): string {
  if (p.ecosystem === 'deb') return `pkg:deb/debian/${encodeURIComponent(p.name)}@${encodeURIComponent(p.version)}?arch=${p.arch ?? 'all'}`;
  const [scope, bare] = p.name.startsWith('@') ? p.name.split('/') : [undefined, p.name];
  return `pkg:npm/${scope ? `${encodeURIComponent(scope)}/` : ''}${encodeURIComponent(bare ?? p.name)}@${encodeURIComponent(p.version)}`;
}

export interface SbomSubject {
  /** The image's name without a registry, e.g. virtgate-agent. */
  image: string;
  version: string;
  /** Where the source is, for the document's namespace. */
  source: string;
  /** When the release was made (the commit's date, so a rebuild gives the same document). */
  created: Date;
}

const spdxId = (text: string): string => `SPDXRef-${text.replace(/[^A-Za-z0-9.-]/g, '-')}`;

export function spdxDocument(subject: SbomSubject, packages: SbomPackage[]): Record<string, unknown> {
  const root = spdxId(`image-${subject.image}`);
  return {
    spdxVersion: 'SPDX-2.3',
    dataLicense: 'CC0-1.0',
    SPDXID: 'SPDXRef-DOCUMENT',
    name: `${subject.image}-${subject.version}`,
    documentNamespace: `${subject.source}/spdx/${subject.image}-${subject.version}`,
    creationInfo: { created: subject.created.toISOString().replace(/\.\d{3}Z$/, 'Z'), creators: ['Tool: virtgate-release'] },
    documentDescribes: [root],
    packages: [
      {
        SPDXID: root,
        name: subject.image,
        versionInfo: subject.version,
        downloadLocation: subject.source,
        licenseConcluded: 'Apache-2.0',
        licenseDeclared: 'Apache-2.0',
        copyrightText: 'NOASSERTION',
        primaryPackagePurpose: 'CONTAINER',
      },
      ...packages.map((p) => ({
        SPDXID: spdxId(`${p.ecosystem}-${p.name}-${p.version}`),
        name: p.name,
        versionInfo: p.version,
        downloadLocation: 'NOASSERTION',
        licenseConcluded: 'NOASSERTION',
        licenseDeclared: p.license ?? 'NOASSERTION',
        copyrightText: 'NOASSERTION',
        externalRefs: [{ referenceCategory: 'PACKAGE-MANAGER', referenceType: 'purl', referenceLocator: purlOf(p) }],
      })),
    ],
    relationships: packages.map((p) => ({ spdxElementId: root, relationshipType: 'CONTAINS', relatedSpdxElement: spdxId(`${p.ecosystem}-${p.name}-${p.version}`) })),
  };
}
