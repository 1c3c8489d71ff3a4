// One step of the argument input: the quick pick for one argument. Row 0 is what is typed (or Skip, or
// a hint); then the values from where the user is (core/run/requests/value-sources) and the suggestions (their
// recent values, then the server's completions: asked by CompletionSession one request at a time, and
// narrowed to the typed text on every keystroke meanwhile). ValueRows keeps every
// row where it is, so what the user typed or clicked is what runs, however fast they press Enter.
import * as vscode from 'vscode';
import type { PromptArgument } from '@modelcontextprotocol/client';
import type { CatalogPrompt } from '../core/catalog/catalog';
import { completeArgument } from '../core/run/invocation';
import { sourceRows, type SourceId, type SourceSnapshot } from '../core/run/requests/value-sources';
import { boxRow, suggestions } from '../core/view/suggestions';
import { CompletionSession } from '../core/view/completion-session';
import { ValueRows, type ValueRow } from '../core/view/value-rows';
import { labelText } from '../core/label';
import { questionShowing } from './question-input';

/** Symbols, not strings: a typed value "back" or "cancel" is a value like any other. */
export const BACK = Symbol('back');
export const CANCEL = Symbol('cancel');
/** A step's answer: typed/picked text, a value from a source (remembered as the argument's last source), Back or cancel. */
export type Answer = string | { source: SourceId; value: string } | typeof BACK | typeof CANCEL;

/** What a value picker that leaves the step (a file dialog, a command) gave: a value, a problem to show, or nothing. */
export type Picked = { value: string; warning?: string } | { problem: string; cancelled?: boolean } | undefined;

export interface StepInput {
  target: CatalogPrompt;
  arg: PromptArgument;
  /** The values given so far: the server's completions get them as context. */
  values: Record<string, string>;
  step: number;
  total: number;
  snapshot: SourceSnapshot;
  /** The argument's recent values, newest first. */
  history: readonly string[];
  /** What the box starts with: the failed attempt's value, or what was given before going Back. */
  initial?: string;
}

/** What the step hands to the edge's other inputs; each takes the keyboard while it runs. */
export interface StepActions {
  pickFile(): Promise<Picked>;
  /** The clipboard read when its row is chosen (a browser window): its text, or why there is none to take. */
  readClipboard(): Promise<{ value: string } | { problem: string }>;
  commandOutput(): Promise<Picked>;
  editInEditor(arg: PromptArgument, initial: string): Promise<string | undefined>;
}

type ValueItem = ValueRow<SourceId> & vscode.QuickPickItem;

/** An argument's description as the step's placeholder: one line, room for a sentence or two. */
const MAX_PLACEHOLDER_CHARS = 500;

/** Shows the step; resolves when the user answers, goes Back or cancels. */
export function askArgument(input: StepInput, actions: StepActions): Promise<Answer> {
  return new Promise(resolve => new ArgumentStep(input, actions, resolve));
}

class ArgumentStep {
  private readonly qp = vscode.window.createQuickPick<ValueItem>();
  private readonly rows: ValueRows<SourceId>;
  private readonly session: CompletionSession;
  private readonly editButton: vscode.QuickInputButton = {
    iconPath: new vscode.ThemeIcon('edit'),
    tooltip: vscode.l10n.t('Edit in editor…'),
  };
  private settled = false;
  /** While the value is edited in an editor (or a file is picked) the step steps aside; it comes back if that is dropped. */
  private away = false;
  /** A clipboard read under way (it may wait on the browser's permission): a second Enter starts no second one. */
  private readingClipboard = false;
  /** A server completion under way; the step is busy while it or a clipboard read is. */
  private completing = false;

  constructor(
    private readonly input: StepInput,
    private readonly actions: StepActions,
    private readonly resolve: (answer: Answer) => void,
  ) {
    const { target, arg, values } = input;
    this.rows = new ValueRows<SourceId>(
      sourceRows(input.snapshot).map(r => ({
        label: r.label,
        description: r.description,
        value: r.value,
        source: r.source,
        problem: r.problem,
      })),
    );
    this.session = new CompletionSession({
      fetch: async (prefix, signal) => (await completeArgument(target, arg.name, prefix, values, signal)).values,
      show: () => this.render(),
      busy: busy => {
        this.completing = busy;
        this.showBusy();
      },
    });
    this.setUp();
    this.qp.onDidChangeValue(v => {
      this.render();
      this.session.request(v);
    });
    this.qp.onDidAccept(() => this.accept());
    this.qp.onDidTriggerButton(b => void this.button(b));
    this.qp.onDidHide(() => this.hidden());
    if (input.initial) this.qp.value = input.initial;
    this.render();
    this.qp.show();
    this.session.request(this.qp.value);
  }

  private setUp(): void {
    const { qp } = this;
    const { target, arg, step, total } = this.input;
    // Server text: one line, no icon syntax (src/core/label.ts).
    const title = labelText(target.prompt.title ?? target.prompt.name);
    const name = labelText(arg.name);
    qp.title = arg.required
      ? vscode.l10n.t('{0}: {1} (required)', title, name)
      : vscode.l10n.t('{0}: {1} (optional, Enter on empty skips)', title, name);
    qp.placeholder = labelText(arg.description ?? arg.name, MAX_PLACEHOLDER_CHARS);
    qp.step = step + 1;
    qp.totalSteps = total;
    qp.ignoreFocusOut = true;
    // Descriptions name a row's source ("recent"): typing must not match them. No sorting: see ValueRows.
    qp.matchOnDescription = false;
    try {
      Object.assign(qp, { sortByLabel: false });
    } catch {
      /* a VS Code without the setter sorts; row 0 still means the box */
    }
    qp.buttons = [...(step > 0 ? [vscode.QuickInputButtons.Back] : []), this.editButton];
  }

  private render(): void {
    const { qp } = this;
    const { arg, history, target } = this.input;
    const items = this.rows.items(
      boxRow(qp.value, arg.name, arg.required),
      suggestions(qp.value, history, this.session.current, target.server.def.name),
      qp.value,
    );
    if (items) qp.items = items;
  }

  /** A value row is that value; row 0 (or none) is the text in the box, Skip when it is empty. */
  private accept(): void {
    const { qp } = this;
    const { arg } = this.input;
    const item = qp.selectedItems[0] ?? qp.activeItems[0];
    if (item?.source) {
      void this.takeSource(item);
      return;
    }
    const value = item?.value ?? qp.value;
    if (!value && arg.required) {
      qp.placeholder = vscode.l10n.t('{0} is required', labelText(arg.name));
      return;
    }
    this.finish(value);
  }

  private async takeSource(item: ValueItem): Promise<void> {
    if (item.problem) {
      this.qp.placeholder = item.problem;
      return;
    }
    const source = item.source!;
    if (source === 'clipboard' && item.value === undefined) {
      await this.readClipboard();
      return;
    }
    if (source !== 'pickFile' && source !== 'command') {
      this.finish({ source, value: item.value ?? '' });
      return;
    }
    const picked = await this.stepAside(() =>
      source === 'pickFile' ? this.actions.pickFile() : this.actions.commandOutput(),
    );
    if (picked && 'value' in picked) {
      if (picked.warning) void vscode.window.showWarningMessage(picked.warning);
      this.finish({ source, value: picked.value });
      return;
    }
    // A failed or cancelled command loses nothing: the same step comes back with what was typed.
    if (picked && !picked.cancelled) void vscode.window.showWarningMessage(picked.problem);
    this.reshow();
  }

  /** The step waits, busy, for a clipboard read only now; with no text to take it stays and says why. */
  private async readClipboard(): Promise<void> {
    if (this.readingClipboard) return;
    this.readingClipboard = true;
    this.showBusy();
    try {
      const read = await this.actions.readClipboard();
      if (this.settled) return;
      if ('value' in read) this.finish({ source: 'clipboard', value: read.value });
      else this.qp.placeholder = read.problem;
    } finally {
      this.readingClipboard = false;
      if (!this.settled) this.showBusy();
    }
  }

  private showBusy(): void {
    this.qp.busy = this.completing || this.readingClipboard;
  }

  private async button(b: vscode.QuickInputButton): Promise<void> {
    if (b === vscode.QuickInputButtons.Back) {
      this.finish(BACK);
      return;
    }
    const { arg, values } = this.input;
    const text = await this.stepAside(() => this.actions.editInEditor(arg, this.qp.value || values[arg.name] || ''));
    if (text !== undefined) this.finish(text);
    else this.reshow();
  }

  /** Hides the step while another input has the keyboard. */
  private async stepAside<T>(other: () => Promise<T>): Promise<T> {
    this.away = true;
    this.qp.hide();
    try {
      return await other();
    } finally {
      this.away = false;
    }
  }

  /** A server's question during completion hides this step: it comes back when the question is answered. */
  private hidden(): void {
    if (this.away) return;
    const question = questionShowing();
    if (question)
      void question.then(() => {
        if (!this.settled) this.reshow();
      });
    else this.finish(CANCEL);
  }

  /**
   * Shown again after another quick input (file dialog, command box) used the widget, its rows are
   * gone from the window (VS Code 1.139; flow.e2e.js's file and command steps): they are sent again.
   */
  private reshow(): void {
    this.qp.show();
    this.qp.items = [...this.qp.items];
  }

  private finish(answer: Answer): void {
    if (this.settled) return;
    this.settled = true;
    this.session.dispose();
    this.resolve(answer);
    this.qp.dispose();
  }
}
