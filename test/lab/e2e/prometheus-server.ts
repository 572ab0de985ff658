/**
 * The real Prometheus server (Debian `prometheus`) on loopback, from a generated config, for the
 * end-to-end metrics test. Its process runs in its own process group with a watchdog, like the
 * control plane's components, so a dying test runner leaves no Prometheus behind.
 */
import type { ChildProcess } from 'node:child_process';
import { access, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { z } from 'zod';
import { freePort } from '../controlplane/ports.ts';
import { ManagedProcess, startWatchdog } from '../controlplane/process.ts';
import { waitFor } from '../support/wait.ts';

export const PROMETHEUS_BINARY = '/usr/bin/prometheus';

export interface ScrapeJob {
  job: string;
  /** `host:port` */
  targets: string[];
}

export interface PrometheusOptions {
  jobs: ScrapeJob[];
  /** Rule groups, as a PrometheusRule's `spec.groups`. */
  ruleGroups?: unknown[];
  /** Scrape and rule evaluation interval. */
  interval?: string;
}

const sample = z.object({ metric: z.record(z.string(), z.string()), value: z.tuple([z.number(), z.string()]) });
const vectorResponse = z.object({ status: z.literal('success'), data: z.object({ resultType: z.literal('vector'), result: z.array(sample) }) });

const targetsResponse = z.object({
  status: z.literal('success'),
  data: z.object({
    activeTargets: z.array(z.object({ labels: z.record(z.string(), z.string()), health: z.string(), lastError: z.string() })),
  }),
});

const alertSchema = z.object({ labels: z.record(z.string(), z.string()), state: z.string(), value: z.string() });
const ruleSchema = z.object({
  name: z.string(),
  type: z.string(),
  health: z.string(),
  state: z.string().optional(),
  lastError: z.string().optional(),
  lastEvaluation: z.string().optional(),
  alerts: z.array(alertSchema).optional(),
});
const alertsResponse = z.object({ status: z.literal('success'), data: z.object({ alerts: z.array(alertSchema) }) });
const rulesResponse = z.object({ status: z.literal('success'), data: z.object({ groups: z.array(z.object({ name: z.string(), rules: z.array(ruleSchema) })) }) });

export type Sample = { labels: Record<string, string>; value: number };
export type Target = z.infer<typeof targetsResponse>['data']['activeTargets'][number];
export type Rule = z.infer<typeof ruleSchema>;
export type Alert = z.infer<typeof alertSchema>;

export class PrometheusServer {
  readonly url: string;
  readonly dir: string;
  private readonly server: ManagedProcess;
  private readonly watchdog: ChildProcess;

  private constructor(url: string, dir: string, server: ManagedProcess, watchdog: ChildProcess) {
    this.url = url;
    this.dir = dir;
    this.server = server;
    this.watchdog = watchdog;
  }

  /** Writes the config (and rules), starts Prometheus and waits until `/-/ready` answers 200. */
  static async start(options: PrometheusOptions): Promise<PrometheusServer> {
    try {
      await access(PROMETHEUS_BINARY);
    } catch {
      throw new Error(`${PROMETHEUS_BINARY} is missing: install Debian prometheus (apt-get install prometheus; .ci/run does this)`);
    }
    const dir = await mkdtemp(path.join(os.tmpdir(), 'virtgate-prometheus-'));
    const watchdog = startWatchdog(dir);
    const interval = options.interval ?? '1s';
    const config = {
      global: { scrape_interval: interval, scrape_timeout: interval, evaluation_interval: interval },
      ...(options.ruleGroups ? { rule_files: ['rules.yaml'] } : {}),
      scrape_configs: options.jobs.map((job) => ({ job_name: job.job, static_configs: [{ targets: job.targets }] })),
    };
    await writeFile(path.join(dir, 'prometheus.yaml'), stringify(config));
    if (options.ruleGroups) await writeFile(path.join(dir, 'rules.yaml'), stringify({ groups: options.ruleGroups }));
    await mkdir(path.join(dir, 'data'));
    const port = await freePort();
    const server = new ManagedProcess('prometheus', dir, PROMETHEUS_BINARY, () => [
      `--config.file=${path.join(dir, 'prometheus.yaml')}`,
      `--storage.tsdb.path=${path.join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ]);
    const prometheus = new PrometheusServer(`http://127.0.0.1:${port}`, dir, server, watchdog);
    try {
      await server.start();
      await waitFor('Prometheus to be ready', async () => {
        if (!server.running) throw new Error(`prometheus exited: ${await prometheus.log()}`);
        const response = await fetch(`${prometheus.url}/-/ready`).catch(() => undefined);
        return response?.status === 200 ? true : undefined;
      }, 60_000, 250);
    } catch (error) {
      await prometheus.stop();
      throw error;
    }
    return prometheus;
  }

  /** The server's pid (its process group), read from the pid file its ManagedProcess writes. */
  async pid(): Promise<number> {
    return Number(await readFile(path.join(this.dir, 'pids', 'prometheus.pid'), 'utf8'));
  }

  /** The last lines of Prometheus's own log, for failure messages. */
  async log(lines = 20): Promise<string> {
    const text = await readFile(this.server.logFile, 'utf8').catch(() => '');
    return text.split('\n').slice(-lines).join('\n');
  }

  /** An instant query: every sample with its labels and value. */
  async query(expr: string): Promise<Sample[]> {
    const body = vectorResponse.parse(await this.get(`/api/v1/query?query=${encodeURIComponent(expr)}`));
    return body.data.result.map((entry) => ({ labels: entry.metric, value: Number(entry.value[1]) }));
  }

  async targets(): Promise<Target[]> {
    return targetsResponse.parse(await this.get('/api/v1/targets?state=active')).data.activeTargets;
  }

  /** Every rule of every loaded group, with its health, state and alerts. */
  async rules(): Promise<Rule[]> {
    return rulesResponse.parse(await this.get('/api/v1/rules')).data.groups.flatMap((group) => group.rules);
  }

  /** Every active alert (pending or firing), as Prometheus's own /api/v1/alerts lists them. */
  async alerts(): Promise<Alert[]> {
    return alertsResponse.parse(await this.get('/api/v1/alerts')).data.alerts;
  }

  private async get(pathname: string): Promise<unknown> {
    const response = await fetch(`${this.url}${pathname}`);
    if (!response.ok) throw new Error(`GET ${pathname}: HTTP ${response.status}: ${await response.text()}`);
    return response.json();
  }

  /** SIGTERM (SIGKILL after 5 s), then removes its directory. Safe to call twice. */
  async stop(): Promise<void> {
    await this.server.stop();
    this.watchdog.kill('SIGKILL');
    await rm(this.dir, { recursive: true, force: true });
  }
}
