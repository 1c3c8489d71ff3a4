// What the last attempts leave for the next one: the arguments of a prompt's last failed attempt (Try
// Again and the next input start from them) and the last run a person asked for (Repeat Last Prompt).
// Both live as long as the window.

/** A run as Repeat Last Prompt repeats it: the prompt's name and the arguments it was given. */
export interface LastRun {
  invocationName: string;
  args: Record<string, string>;
}

export class Attempts {
  private readonly drafts = new Map<string, Record<string, string>>();
  private lastRun?: LastRun;

  /** Arguments of the last failed attempt of a prompt, or {}. */
  draft(invocationName: string): Record<string, string> {
    return this.drafts.get(invocationName) ?? {};
  }

  /** Keeps `args` after a failure; `undefined` (a success) forgets them. */
  setDraft(invocationName: string, args: Record<string, string> | undefined): void {
    if (args) this.drafts.set(invocationName, args);
    else this.drafts.delete(invocationName);
  }

  /** What Repeat Last Prompt runs: the last run that got its arguments, whether it ran here or went to chat. */
  get last(): LastRun | undefined {
    return this.lastRun;
  }

  ran(run: LastRun): void {
    this.lastRun = run;
  }
}
