// The multi-step argument input shared by chat, picker and tree: step N of M, Back, completion from
// the server (debounced, in-flight requests cancelled, cached per prefix), last-used values first,
// optional arguments skippable with Enter on an empty line, and "Edit in editor…" for long values.
import * as vscode from 'vscode';
import type { PromptArgument } from '@modelcontextprotocol/sdk/types.js';
import type { CatalogPrompt } from '../core/catalog';
import { completeArgument } from '../core/invocation';
import type { ExtensionState } from '../state';

const DEBOUNCE_MS = 150;

/** Row 0 is the input box itself (what is typed, Skip, or a hint); every other row is one value. */
interface ValueItem extends vscode.QuickPickItem { value?: string }

/**
 * The rows of one argument step, built so that what the user typed or picked is what runs.
 *
 * VS Code's extension host maps the row the window accepted to an item by its index in the item list
 * it holds now, and the window may still show an older list (every keystroke and every server answer
 * replaces it). So rows never move: row 0 always means "the text in the box" (read when Enter arrives,
 * after every keystroke that came before it), and each value keeps the index it first got; values no
 * longer suggested lose `alwaysShow` instead of their place. And the window must not sort a suggestion
 * above row 0 while its label still shows the previous text: sortByLabel is off.
 */
export class ValueRows {
  private readonly values: string[] = [];
  private readonly index = new Map<string, number>();
  private signature = '';

  /** Row 0 `box`, then every value seen so far; `current` (value → description) are shown. Undefined if unchanged. */
  items(box: vscode.QuickPickItem, current: ReadonlyMap<string, string>): ValueItem[] | undefined {
    for (const v of current.keys()) if (!this.index.has(v)) { this.index.set(v, this.values.length); this.values.push(v); }
    const items: ValueItem[] = [{ ...box, alwaysShow: true }, ...this.values.map(v => ({ label: v, value: v, description: current.get(v), alwaysShow: current.has(v) }))];
    const signature = JSON.stringify(items.map(i => [i.label, i.description, i.alwaysShow]));
    if (signature === this.signature) return undefined;
    this.signature = signature;
    return items;
  }
}

export interface CollectOptions {
  askOptional?: boolean;
  /** Values to start from (the arguments of a failed attempt), pre-filled in each step. */
  defaults?: Record<string, string>;
}

export class ArgumentInput {
  constructor(private readonly state: ExtensionState) {}

  /** Resolves the values the user gave (merged with `given`), or undefined when they cancel. */
  async collect(target: CatalogPrompt, given: Record<string, string>, options: CollectOptions = {}): Promise<Record<string, string> | undefined> {
    const args = (target.prompt.arguments ?? []).filter(a => !given[a.name] && (a.required || options.askOptional));
    const values = { ...given };
    // What each step starts from: the failed attempt's value, or what the user gave before going Back.
    const initial: Record<string, string> = { ...options.defaults };
    for (let i = 0; i < args.length;) {
      const answer = await this.ask(target, args[i], values, i, args.length, initial[args[i].name]);
      if (answer === 'cancel') return undefined;
      if (answer === 'back') {
        i = Math.max(0, i - 1);
        if (values[args[i].name] !== undefined) initial[args[i].name] = values[args[i].name];
        delete values[args[i].name];
        continue;
      }
      if (answer) values[args[i].name] = answer; else delete values[args[i].name];
      i++;
    }
    await this.state.remember(target.invocationName, values);
    return values;
  }

  private ask(target: CatalogPrompt, arg: PromptArgument, values: Record<string, string>, step: number, total: number, initial?: string): Promise<string | 'back' | 'cancel'> {
    const qp = vscode.window.createQuickPick<ValueItem>();
    const title = target.prompt.title ?? target.prompt.name;
    qp.title = arg.required ? vscode.l10n.t('{0}: {1} (required)', title, arg.name) : vscode.l10n.t('{0}: {1} (optional, Enter on empty skips)', title, arg.name);
    qp.placeholder = arg.description ?? arg.name;
    qp.step = step + 1;
    qp.totalSteps = total;
    qp.ignoreFocusOut = true;
    // Descriptions name a row's source ("recent"): typing must not match them. No sorting: see ValueRows.
    qp.matchOnDescription = false;
    try { Object.assign(qp, { sortByLabel: false }); } catch { /* a VS Code without the setter sorts; row 0 still means the box */ }
    const editButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('edit'), tooltip: vscode.l10n.t('Edit in editor…') };
    qp.buttons = [...(step > 0 ? [vscode.QuickInputButtons.Back] : []), editButton];
    const history = this.state.history(target.invocationName, arg.name);
    const cache = new Map<string, string[]>();
    let completions: { prefix: string; values: string[] } = { prefix: '', values: [] };
    let controller: AbortController | undefined;
    let timer: NodeJS.Timeout | undefined;

    const rows = new ValueRows();
    const fromServer = vscode.l10n.t('suggestion from {0}', target.server.def.name);
    const render = () => {
      const typed = qp.value;
      const box = typed ? { label: typed, description: vscode.l10n.t('use what you typed') }
        : arg.required ? { label: vscode.l10n.t('$(edit) Type a value for {0}', arg.name) }
          : { label: vscode.l10n.t('$(debug-step-over) Skip'), description: vscode.l10n.t('leave {0} empty', arg.name) };
      const lower = typed.toLowerCase();
      const current = new Map<string, string>();
      for (const h of history) if (h !== typed && h.toLowerCase().includes(lower)) current.set(h, vscode.l10n.t('recent'));
      // Until the server answers for this text, its last answer is narrowed to what still fits it.
      const answered = completions.prefix === typed ? completions.values : completions.values.filter(c => c.toLowerCase().startsWith(lower));
      for (const c of answered) if (c !== typed && !current.has(c)) current.set(c, fromServer);
      const items = rows.items(box, current);
      if (items) qp.items = items;
    };

    const complete = (prefix: string) => {
      clearTimeout(timer);
      const cached = cache.get(prefix);
      if (cached) { completions = { prefix, values: cached }; render(); return; }
      timer = setTimeout(() => {
        controller?.abort();
        const mine = (controller = new AbortController());
        qp.busy = true;
        completeArgument(target, arg.name, prefix, values, mine.signal).then(result => {
          cache.set(prefix, result.values);
          if (mine.signal.aborted) return;
          completions = { prefix, values: result.values };
          render();
        }, () => undefined).finally(() => { if (controller === mine) qp.busy = false; });
      }, prefix === '' ? 0 : DEBOUNCE_MS);
    };

    return new Promise(resolve => {
      let settled = false;
      const finish = (v: string | 'back' | 'cancel') => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        controller?.abort();
        resolve(v);
        qp.dispose();
      };
      qp.onDidChangeValue(v => { render(); complete(v); });
      qp.onDidAccept(() => {
        // A value row is that value; row 0 (or none) is the text in the box, Skip when it is empty.
        const item = qp.selectedItems[0] ?? qp.activeItems[0];
        const value = item?.value ?? qp.value;
        if (!value && arg.required) { qp.placeholder = vscode.l10n.t('{0} is required', arg.name); return; }
        finish(value);
      });
      // While the value is edited in an editor the input steps aside; it comes back if the edit is dropped.
      let editing = false;
      qp.onDidTriggerButton(async b => {
        if (b === vscode.QuickInputButtons.Back) { finish('back'); return; }
        editing = true;
        qp.hide();
        const text = await editInEditor(arg, qp.value || values[arg.name] || '');
        editing = false;
        if (text !== undefined) finish(text); else qp.show();
      });
      qp.onDidHide(() => { if (!editing) finish('cancel'); });
      if (initial) qp.value = initial;
      render();
      qp.show();
      complete(qp.value);
    });
  }
}

/**
 * Opens the value in an untitled editor; the text is used when the user chooses "Use Text" in a
 * small quick input that stays open beside the editor (a toast could time out while they type).
 */
async function editInEditor(arg: PromptArgument, initial: string): Promise<string | undefined> {
  const doc = await vscode.workspace.openTextDocument({ content: initial, language: 'plaintext' });
  const use: vscode.QuickPickItem = { label: vscode.l10n.t('$(check) Use Text'), description: vscode.l10n.t('the editor\'s text becomes {0}', arg.name) };
  const cancel: vscode.QuickPickItem = { label: vscode.l10n.t('$(close) Cancel'), description: vscode.l10n.t('back to the input') };
  // The prompt first, then the editor: the editor takes the keyboard, so what the user types goes into
  // the value and an Enter makes a new line instead of choosing "Use Text" (seen in a UI test when the
  // prompt opened after the editor and took the focus back from it).
  const pick = vscode.window.showQuickPick([use, cancel], { title: vscode.l10n.t('Edit the value of {0} in the editor, then choose "Use Text".', arg.name), ignoreFocusOut: true });
  await vscode.window.showTextDocument(doc, { preview: false, preserveFocus: false });
  const choice = await pick;
  if (choice !== use) return undefined;
  const text = doc.getText();
  await vscode.window.showTextDocument(doc);
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  return text;
}
