/** Idle waits that end early when new work is announced in this process (other processes poll). */
export class Waker {
  private readonly waiting = new Set<() => void>();

  /** Resolves after `ms`, or at once on wakeAll(). */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiting.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiting.add(done);
    });
  }

  wakeAll(): void {
    for (const done of [...this.waiting]) done();
  }
}
