import { isOfflineError } from '../service-client/errors';

/**
 * After the service could not be reached, asks it again now and then (backing off from `firstMs`
 * to `maxMs`) until it answers, then says so once: the header comes back online by itself, without
 * waiting for the next Sync. Any answer counts, even a refusal: only a network failure or a
 * timeout means "still offline".
 */
export class OnlineProbe {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private delay: number;

  constructor(
    private readonly opts: {
      /** One cheap call to the service. */
      ask: () => Promise<unknown>;
      /** The service answered again. */
      onOnline: () => void;
      firstMs?: number;
      maxMs?: number;
    },
  ) {
    this.delay = opts.firstMs ?? 2_000;
  }

  get running(): boolean {
    return this.timer !== undefined;
  }

  start(): void {
    if (this.timer) return;
    this.delay = this.opts.firstMs ?? 2_000;
    this.schedule();
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    this.timer = setTimeout(() => void this.probe(), this.delay);
    // A probe must never keep the process alive on its own.
    this.timer.unref?.();
  }

  private async probe(): Promise<void> {
    let reached = true;
    try {
      await this.opts.ask();
    } catch (error) {
      reached = !isOfflineError(error);
    }
    if (!this.timer) return; // stopped meanwhile
    if (reached) {
      this.timer = undefined;
      this.opts.onOnline();
      return;
    }
    this.delay = Math.min(this.delay * 2, this.opts.maxMs ?? 60_000);
    this.schedule();
  }
}
