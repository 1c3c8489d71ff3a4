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
