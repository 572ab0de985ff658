import { readFile } from 'node:fs/promises';
import { Command } from 'commander';
import { parseAllDocuments } from 'yaml';
import { explain } from '../../explain/explanation.ts';
import { dryRunCreate, ExplainReadError, readCluster, readLauncherRequests, readVmObject } from '../../explain/read-cluster.ts';
import { readVmiInput, VmiInputError } from '../../explain/vmi-input.ts';
import type { ExplainResult } from '../../explain/document.ts';
import { loadKubeConfig } from '../../core/kube/kubeconfig.ts';
import { addSettings, configOf } from '../settings/flags.ts';
import { explainSettings, type ExplainSettings } from '../settings/explain.ts';
import { renderExplanation } from '../render/explain-table.ts';
import { exitCodesHelp } from '../exit-codes.ts';
import { permissionsHelp } from '../permissions.ts';
import { asUsageError, ClusterUnreachableError, UsageError } from '../usage-error.ts';

const KINDS = { vmi: 'vmi', vmis: 'vmi', virtualmachineinstance: 'vmi', vm: 'vm', vms: 'vm', virtualmachine: 'vm' } as const;

export function explainCommand(): Command {
  return addSettings(new Command('explain'), explainSettings)
    .description("why can't this VM run here? where a VM can start or live-migrate, and for every other node the first KubeVirt requirement it fails and virtgate's evidence why")
    .argument('[kind]', 'vmi or vm (not with --file)')
    .argument('[name]', 'the VMI or VM (not with --file)')
    .addHelpText(
      'after',
      `\n${exitCodesHelp('explain')}\n${permissionsHelp('explain')}\n` +
        'Examples:\n  virtgate explain vmi fedora -n vms\n  virtgate explain vm fedora --json | jq .placement.groups\n  virtgate explain -f vm.yaml   # before you create it',
    )
    .action(async (kind: string | undefined, name: string | undefined, flags: Record<string, unknown>) => {
      process.exitCode = await runExplain(kind, name, flags);
    });
}

async function runExplain(kindArgument: string | undefined, name: string | undefined, flags: Record<string, unknown>): Promise<number> {
  const settings = configOf(explainSettings, flags);
  const target = targetOf(kindArgument, name, settings);
  const kc = await asUsageError(() => loadKubeConfig({ kubeconfig: settings.kubeconfig, context: settings.context }), 'cannot load the kubeconfig');
  const namespace = settings.namespace ?? kc.getContextObject(kc.getCurrentContext())?.namespace ?? 'default';
  const requestTimeoutMs = settings.requestTimeoutSeconds * 1000;
  try {
    const raw = target.file === undefined ? await readFromCluster(kc, target.kind, namespace, target.name, requestTimeoutMs) : await readFromFile(kc, target.file, namespace, requestTimeoutMs);
    const vmiUid = target.file === undefined ? uidOf(raw.object) : null;
    const cluster = await readCluster(kc, { requestTimeoutMs, vmiUid, prefix: settings.prefix, staleAfterSeconds: settings.staleAfterSeconds, now: settings.now ?? new Date() });
    const vmi = readVmiInput(raw.object, raw.source, { clusterCpuModel: cluster.config.cpuModel, defaultArchitecture: cluster.config.defaultArchitecture }, { fromServer: target.file === undefined, namespace });
    // A VMI KubeVirt has made a pod for: the pod's own requests (its memory overhead included).
    const launcherRequests = target.file === undefined && vmi.kind === 'VirtualMachineInstance' && vmi.uid !== null ? await readLauncherRequests(kc, vmi.namespace, vmi.uid, { requestTimeoutMs }) : null;
    const result = explain({ vmi, launcherRequests, config: cluster.config, nodes: cluster.nodes, context: { prefix: settings.prefix, workloadsPlacement: cluster.workloadsPlacement, permittedHostDevices: cluster.config.permittedHostDevices } });
    const document: ExplainResult = { ...result, notes: [...raw.notes, ...cluster.notes, ...result.notes] };
    process.stdout.write(settings.json ? `${JSON.stringify(document, null, 2)}\n` : renderExplanation(document, { nodes: settings.nodes }));
    return document.exitCode;
  } catch (error) {
    if (error instanceof VmiInputError) throw new UsageError(error.message);
    // As `virtgate gate`: a refused read (403) is a cluster that cannot be read, with what is needed.
    if (error instanceof ExplainReadError) throw new ClusterUnreachableError(error.status === 403 ? `${error.message}; ${permissionsHelp('explain')}` : error.message);
    throw error;
  }
}

type Target = { file: string; kind?: undefined; name?: undefined } | { file?: undefined; kind: 'vmi' | 'vm'; name: string };

function targetOf(kindArgument: string | undefined, name: string | undefined, settings: ExplainSettings): Target {
  if (settings.file !== undefined) {
    if (kindArgument !== undefined) throw new UsageError('--file explains the VM in the file: give no kind or name with it');
    return { file: settings.file };
  }
  if (kindArgument === undefined || name === undefined) throw new UsageError('say which VM: `virtgate explain vmi NAME`, `virtgate explain vm NAME`, or `virtgate explain -f vm.yaml`');
  const kind = KINDS[kindArgument.toLowerCase() as keyof typeof KINDS];
  if (kind === undefined) throw new UsageError(`unknown kind "${kindArgument}": use vmi or vm`);
  return { kind, name };
}

/** A VMI's uid (a VM's is not its VMI's: its pods are labelled with the VMI's). */
function uidOf(object: unknown): string | null {
  const record = object as { kind?: unknown; metadata?: { uid?: unknown } } | null;
  return record?.kind === 'VirtualMachineInstance' && typeof record.metadata?.uid === 'string' ? record.metadata.uid : null;
}

interface VmRead {
  object: unknown;
  source: string;
  notes: string[];
}

/**
 * A file's VM, checked by the API server in a dry run when the user may create VMs: KubeVirt's
 * schema and admission refuse what KubeVirt would refuse (exit 2), and fill in its defaults.
 */
async function readFromFile(kc: Parameters<typeof readVmObject>[0], file: string, namespace: string, requestTimeoutMs: number): Promise<VmRead> {
  const object = await readVmFile(file);
  const source = `file ${file}`;
  // virtgate's own reading first, so that what it reads is refused in its own words.
  readVmiInput(object, source, { clusterCpuModel: null, defaultArchitecture: null }, { fromServer: false, namespace });
  const dryRun = await dryRunCreate(kc, object, namespace, { requestTimeoutMs });
  if (dryRun.state === 'refused') throw new UsageError(`${source}: the API server refused it (dry run, nothing created): ${dryRun.message}`);
  if (dryRun.state === 'skipped') return { object, source, notes: [`${source} was not checked by the API server (${dryRun.why}): KubeVirt's schema and admission may still refuse it`] };
  return { object: dryRun.object, source, notes: [`${source} was accepted by the API server in a dry run (KubeVirt's schema with strict fields, and its admission); nothing was created`] };
}

/** A VM explains its VMI when it has one (it then has a node and a phase), else its template. */
async function readFromCluster(kc: Parameters<typeof readVmObject>[0], kind: 'vmi' | 'vm', namespace: string, name: string, requestTimeoutMs: number): Promise<VmRead> {
  if (kind === 'vm') {
    const vmi = await readVmObject(kc, 'vmi', namespace, name, { requestTimeoutMs }).catch((error: unknown) => {
      if (error instanceof ExplainReadError && error.status === 403) return null;
      throw error;
    });
    if (vmi !== null) return { object: vmi, source: `vm ${namespace}/${name} (its VMI)`, notes: [] };
  }
  const object = await readVmObject(kc, kind, namespace, name, { requestTimeoutMs });
  if (object === null) throw new UsageError(`${kind} ${namespace}/${name} not found (HTTP 404): check the name and -n/--namespace`);
  return { object, source: `${kind} ${namespace}/${name}`, notes: [] };
}

/** The first VirtualMachine or VirtualMachineInstance in a YAML or JSON file. */
async function readVmFile(file: string): Promise<Record<string, unknown>> {
  const text = await readFile(file, 'utf8').catch((error: unknown) => {
    throw new UsageError(`--file ${file}: cannot read it: ${error instanceof Error ? error.message : String(error)}`);
  });
  const documents = parseAllDocuments(text);
  const list = Array.isArray(documents) ? documents : [documents];
  for (const document of list) {
    if (document.errors.length > 0) throw new UsageError(`--file ${file}: not YAML or JSON: ${document.errors[0]?.message.split('\n')[0] ?? 'parse error'}`);
    const object: unknown = document.toJS({ maxAliasCount: 100 });
    if (typeof object === 'object' && object !== null && ['VirtualMachine', 'VirtualMachineInstance'].includes(String((object as { kind?: unknown }).kind))) return object as Record<string, unknown>;
  }
  throw new UsageError(`--file ${file}: holds no VirtualMachine or VirtualMachineInstance (kubevirt.io/v1)`);
}
