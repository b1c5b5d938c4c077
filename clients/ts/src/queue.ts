/**
 * An unbounded queue read as an async iterable: the request side of a
 * bidirectional stream. Items pushed after close are dropped. One reader.
 */
export class AsyncQueue<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private waiter: ((result: IteratorResult<T, undefined>) => void) | undefined;
  private closed = false;

  /** Appends an item; returns false when the queue is closed. */
  push(item: T): boolean {
    if (this.closed) {
      return false;
    }
    const waiter = this.waiter;
    if (waiter !== undefined) {
      this.waiter = undefined;
      waiter({ value: item, done: false });
    } else {
      this.items.push(item);
    }
    return true;
  }

  /** Ends the iteration once the queued items are read. */
  close(): void {
    this.closed = true;
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.({ value: undefined, done: true });
  }

  private discard(): Promise<IteratorResult<T, undefined>> {
    this.close();
    this.items.length = 0;
    return Promise.resolve({ value: undefined, done: true });
  }

  /** Whether {@link AsyncQueue.close} was called. */
  get isClosed(): boolean {
    return this.closed;
  }

  [Symbol.asyncIterator](): AsyncIterator<T, undefined> {
    return {
      next: () => {
        const item = this.items.shift();
        if (item !== undefined) {
          return Promise.resolve({ value: item, done: false });
        }
        if (this.closed) {
          return Promise.resolve({ value: undefined, done: true });
        }
        return new Promise((resolve) => {
          this.waiter = resolve;
        });
      },
      return: () => this.discard(),
      // The transport throws into the request stream when the call ends
      // first; the queue then ends, dropping what was not sent.
      throw: () => this.discard(),
    };
  }
}
