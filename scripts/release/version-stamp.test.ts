import { describe, expect, it } from 'vitest';
import { jsonText, stampLock, stampManifest } from './version-stamp.ts';

const MANIFEST = jsonText({ name: 'virtgate', version: '0.1.0', type: 'module', bin: { virtgate: 'dist/cli/main.js' } });
const LOCK = jsonText({ name: 'virtgate', version: '0.1.0', lockfileVersion: 3, requires: true, packages: { '': { name: 'virtgate', version: '0.1.0', license: 'Apache-2.0' }, 'node_modules/ms': { version: '2.1.3' } } });

describe('stampManifest and stampLock', () => {
  it('change the version fields only, keeping every other field and its place', () => {
    expect(jsonText(stampManifest(MANIFEST, '1.2.3'))).toBe(MANIFEST.replace('"0.1.0"', '"1.2.3"'));
    expect(jsonText(stampLock(LOCK, '1.2.3'))).toBe(LOCK.replaceAll('"0.1.0"', '"1.2.3"'));
  });

  it('refuse another package\'s files', () => {
    expect(() => stampManifest(jsonText({ name: 'other', version: '1.0.0' }), '1.2.3')).toThrow();
    expect(() => stampLock(jsonText({ name: 'virtgate', version: '0.1.0', packages: {} }), '1.2.3')).toThrow();
  });
});
