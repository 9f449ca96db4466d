/** A counting semaphore: at most `size` holders at once, waiters served in arrival order. */
export class Semaphore {
  #free: number;
  readonly #waiters: (() => void)[] = [];

  constructor(size: number) {
    if (!Number.isInteger(size) || size < 1)
      throw new RangeError('semaphore size must be a positive integer');
    this.#free = size;
  }

  /** Resolves with a release function once a slot is free; rejects if `signal` aborts first. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    signal?.throwIfAborted();
    if (this.#free > 0) {
      this.#free--;
      return Promise.resolve(this.#releaser());
    }
    return new Promise((resolve, reject) => {
      const grant = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve(this.#releaser());
      };
      const onAbort = () => {
        const at = this.#waiters.indexOf(grant);
        if (at >= 0) this.#waiters.splice(at, 1);
        reject(signal!.reason);
      };
      this.#waiters.push(grant);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  #releaser(): () => void {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const next = this.#waiters.shift();
      // The slot passes straight to the next waiter, so it is never seen free in between.
      if (next) next();
      else this.#free++;
    };
  }
}
