import { describe, expect, it } from 'vitest';
import { cdiCrdFromGeneratedSource } from './kubevirt-crds.ts';

describe('cdiCrdFromGeneratedSource', () => {
  it('reads the "cdi" entry of CDI\'s crds_generated.go, and only it', () => {
    const source = 'package resources\n\nvar CDICRDs map[string]string = map[string]string{\n\t"cdi": `kind: CustomResourceDefinition\nmetadata:\n  name: cdis.cdi.kubevirt.io\n`,\n\t"cdiconfig": `kind: X\n`,\n}\n';
    expect(cdiCrdFromGeneratedSource(source)).toBe('kind: CustomResourceDefinition\nmetadata:\n  name: cdis.cdi.kubevirt.io\n');
    expect(() => cdiCrdFromGeneratedSource('package resources\n')).toThrow(/no "cdi" entry/);
  });

  it('puts back the backticks crd-generator writes as ` + "`" + ` (as in v1.65.0\'s certificate descriptions)', () => {
    const source = '\t"cdi": `description: the certificate\'s ` + "`" + `notAfter` + "`" + ` time\nkind: CustomResourceDefinition\n`,\n\t"cdiconfig": `x`,\n';
    expect(cdiCrdFromGeneratedSource(source)).toBe("description: the certificate's `notAfter` time\nkind: CustomResourceDefinition\n");
  });
});
