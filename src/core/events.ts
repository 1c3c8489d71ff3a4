// A minimal typed event, shaped like vscode.Event so surfaces can adapt it without glue.
export interface Disposable {
  dispose(): void;
}
export type Event<T> = (listener: (e: T) => void) => Disposable;

export class Emitter<T> {
  private listeners = new Set<(e: T) => void>();
  readonly event: Event<T> = listener => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };
  fire(e: T): void {
    if (!this.listeners.size) return;
    for (const l of [...this.listeners]) {
      try {
        l(e);
      } catch {
        /* a faulty listener must not stop the others */
      }
    }
  }
  get size(): number {
    return this.listeners.size;
  }
  dispose(): void {
    this.listeners.clear();
  }
}

/** Calls `fn` once `event` has been quiet for `ms` (a burst of changes, one call); the timer never keeps Node alive. */
export function whenQuiet<T>(event: Event<T>, ms: number, fn: () => void): Disposable {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const sub = event(() => {
    clearTimeout(timer);
    timer = setTimeout(fn, ms);
    timer.unref?.();
  });
  return {
    dispose: () => {
      clearTimeout(timer);
      sub.dispose();
    },
  };
}
