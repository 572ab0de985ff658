/**
 * Where tests find their inputs: the recorded virt-host-validate outputs (in the repository,
 * test/fixtures/virt-host-validate) and the real virt-host-validate. Each lookup throws a clear
 * error when the thing is missing, so a test that needs it fails instead of skipping.
 */
import { access, constants, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PACKAGE_ROOT } from '../../../core/package-info.ts';

export const REPO_ROOT = PACKAGE_ROOT;
export const CLI_MAIN = path.join(REPO_ROOT, 'cli/main.ts');

/** Real captures of `virt-host-validate qemu`; their README says where and how they were recorded. */
export const VHV_FIXTURE_DIR = path.join(REPO_ROOT, 'test/fixtures/virt-host-validate');

/** The three recordings of libvirt 9.0's `virt-host-validate qemu` that the tests evaluate. */
export const VHV_FIXTURE_FILES = ['libvirt-9.0-kvm-ok.txt', 'libvirt-9.0-kvm-module-missing.txt', 'libvirt-9.0-no-hw-virt.txt'] as const;
export type VhvFixture = (typeof VHV_FIXTURE_FILES)[number];

export async function vhvFixture(name: VhvFixture): Promise<string> {
  const file = path.join(VHV_FIXTURE_DIR, name);
  try {
    await access(file, constants.R_OK);
  } catch {
    throw new Error(
      `recorded virt-host-validate output ${file} is missing from the checkout: ` +
        'restore test/fixtures/virt-host-validate (git checkout -- test/fixtures)',
    );
  }
  return file;
}

export const REAL_VHV = '/usr/bin/virt-host-validate';

export async function realVirtHostValidate(): Promise<string> {
  try {
    await access(REAL_VHV, constants.X_OK);
  } catch {
    throw new Error(`${REAL_VHV} is not installed: install libvirt-clients (apt-get install libvirt-clients); .ci/run does this`);
  }
  return REAL_VHV;
}

/** A fresh temporary directory and the function that removes it. */
export async function tempDir(label: string): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), `virtgate-${label}-`));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
