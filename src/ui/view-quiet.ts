// A box that opens on its own (an `${input:…}` value a configuration read needs) waits until the sidebar
// has been still for a moment. VS Code 1.139's tree view takes the keyboard back when a refresh ends while
// it still counts itself focused (treeView.ts doRefresh: `this.focused && this.focus(false)`; its blur is
// counted a task later): a box opened as the Prompts view redraws lost its keyboard to the tree, and what
// the person typed went there (seen after "Start Server", as the row that waited for consent went).
import type * as vscode from 'vscode';

/** How long no view changed before a box opens: VS Code's extension host batches tree changes for 200 ms. */
const STILL_MS = 400;
/** A view that keeps changing holds a box back no longer than this. */
const MAX_WAIT_MS = 3000;

/** The time, and a wait for some of it (the unit test passes its own). */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const realClock: Clock = {
  now: () => Date.now(),
  sleep: ms => new Promise(resolve => setTimeout(resolve, ms)),
};

export class ViewQuiet implements vscode.Disposable {
  private lastChange = -Infinity;
  private readonly subs: vscode.Disposable[] = [];

  constructor(private readonly clock: Clock = realClock) {}

  /** Counts the changes of a view while `visible()`: a hidden view does not redraw. */
  watch(changes: vscode.Event<unknown>, visible: () => boolean): void {
    this.subs.push(
      changes(() => {
        if (visible()) this.lastChange = this.clock.now();
      }),
    );
  }

  /** Resolves once no watched view changed for STILL_MS, or after MAX_WAIT_MS, or when `token` is cancelled. */
  async settled(token?: vscode.CancellationToken): Promise<void> {
    const deadline = this.clock.now() + MAX_WAIT_MS;
    for (;;) {
      const wait = Math.min(this.lastChange + STILL_MS, deadline) - this.clock.now();
      if (wait <= 0 || token?.isCancellationRequested) return;
      await this.clock.sleep(wait);
    }
  }

  dispose(): void {
    for (const sub of this.subs) sub.dispose();
  }
}
