import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { freeTcpPort, infraTool } from './test-infra';

export interface PrometheusTarget {
  app: string;
  port: number;
}

export interface PromQueryResult {
  status: 'success' | 'error';
  error?: string;
  errorType?: string;
  data?: { resultType: string; result: Array<{ metric: Record<string, string>; value: [number, string] }> };
}

/**
 * A real Prometheus (Debian's, installed by tools/infra/up.sh) scraping the
 * given apps' /metrics on 127.0.0.1 every second as job "ris" (the job the
 * alert rules and the dashboard select), with its data in a temporary
 * directory; `ruleFiles` are loaded as in production.
 */
export class PrometheusServer {
  private constructor(
    readonly url: string,
    private readonly child: ChildProcess,
    private readonly dir: string,
    private readonly output: string[],
  ) {}

  static async start(targets: PrometheusTarget[], options: { ruleFiles?: string[] } = {}): Promise<PrometheusServer> {
    const dir = mkdtempSync(join(tmpdir(), 'prometheus-test-'));
    const rules = (options.ruleFiles ?? []).map((file) => {
      copyFileSync(file, join(dir, basename(file)));
      return basename(file);
    });
    const config = {
      global: { scrape_interval: '1s', evaluation_interval: '1s' },
      rule_files: rules,
      scrape_configs: [
        {
          job_name: 'ris',
          static_configs: targets.map((t) => ({ targets: [`127.0.0.1:${t.port}`], labels: { app: t.app } })),
        },
      ],
    };
    // JSON is YAML: Prometheus reads it as its configuration.
    writeFileSync(join(dir, 'prometheus.yml'), JSON.stringify(config, null, 2));
    const port = await freeTcpPort();
    const output: string[] = [];
    const child = spawn(
      infraTool('PROMETHEUS'),
      [`--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    for (const stream of [child.stdout, child.stderr]) stream?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    const server = new PrometheusServer(`http://127.0.0.1:${port}`, child, dir, output);
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`prometheus exited (${child.exitCode}):\n${output.join('')}`);
      const ready = await fetch(`${server.url}/-/ready`).then((r) => r.ok, () => false);
      if (ready) return server;
      if (Date.now() > deadline) throw new Error(`prometheus not ready after 30 s:\n${output.join('')}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  /** An instant query through the HTTP API; a PromQL error comes back as status "error" with Prometheus's message. */
  async query(expr: string): Promise<PromQueryResult> {
    const res = await fetch(`${this.url}/api/v1/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ query: expr }),
    });
    return (await res.json()) as PromQueryResult;
  }

  /** The value of a query that returns one sample (a sum, a count), or null while there is none. */
  async value(expr: string): Promise<number | null> {
    const result = await this.query(expr);
    if (result.status !== 'success') throw new Error(`${expr}: ${result.error}`);
    const first = result.data?.result[0];
    return first ? Number(first.value[1]) : null;
  }

  /** Metric names the scraped targets describe (HELP/TYPE), whether or not they have samples yet. */
  async metricNames(): Promise<Set<string>> {
    const res = (await (await fetch(`${this.url}/api/v1/metadata`)).json()) as { data: Record<string, unknown> };
    return new Set(Object.keys(res.data));
  }

  /** The scrape targets and their health. */
  async targets(): Promise<Array<{ labels: Record<string, string>; health: string; lastError: string }>> {
    const res = (await (await fetch(`${this.url}/api/v1/targets`)).json()) as {
      data: { activeTargets: Array<{ labels: Record<string, string>; health: string; lastError: string }> };
    };
    return res.data.activeTargets;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null) {
      await new Promise<void>((resolve) => {
        this.child.once('exit', () => resolve());
        this.child.kill('SIGTERM');
      });
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
