export interface PeriodicTaskOptions {
  intervalMs: number;
  /** Run once at start() instead of after the first interval (a restart after a crash settles what the crash left). */
  runAtStart?: boolean;
  /** Where a failed pass goes; the next pass runs as usual. */
  onError: (err: unknown) => void;
}

/**
 * A background pass run every intervalMs, never two at once: the next one
 * is timed from the end of the last, so a slow pass cannot pile up behind
 * itself. stop() waits for a pass in progress, so a service stopping does
 * not close its database under it.
 */
export class PeriodicTask {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = true;

  constructor(
    private readonly pass: () => Promise<unknown>,
    private readonly options: PeriodicTaskOptions,
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    // Started again while a pass from before stop() is finishing: that pass schedules the next.
    if (this.running) return;
    if (this.options.runAtStart) this.tick();
    else this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => this.tick(), this.options.intervalMs);
    this.timer.unref();
  }

  private tick(): void {
    if (this.stopped) return;
    this.running = this.pass()
      .then(() => undefined)
      .catch((err: unknown) => {
        try {
          this.options.onError(err);
        } catch {
          // A failing error handler must not end the loop (nor reject unhandled).
        }
      })
      .finally(() => {
        this.running = undefined;
        this.schedule();
      });
  }
}
