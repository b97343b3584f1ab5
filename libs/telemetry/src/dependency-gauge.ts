import { Gauge } from 'prom-client';

export interface DependencyCheck {
  name: string;
  check: () => boolean | Promise<boolean>;
}

const checks = new Map<string, DependencyCheck>();

/**
 * ris_dependency_up{dependency}: 1 while the process reaches it (its
 * database, NATS, Redis), 0 otherwise; asked at each scrape, with the
 * checks its readiness uses.
 */
new Gauge({
  name: 'ris_dependency_up',
  help: 'Whether this process reaches the dependency (1) or not (0), as its readiness check sees it',
  labelNames: ['dependency'],
  async collect() {
    this.reset();
    await Promise.all(
      [...checks.values()].map(async ({ name, check }) => {
        let up = false;
        try {
          up = await check();
        } catch {
          up = false;
        }
        this.set({ dependency: name }, up ? 1 : 0);
      }),
    );
  },
});

export function reportDependencies(list: DependencyCheck[]): void {
  for (const c of list) checks.set(c.name, c);
}
