// The multi-step argument input shared by chat, picker and tree: step N of M, Back, completion from
// the server (debounced, in-flight requests cancelled, cached per prefix), last-used values first,
// optional arguments skippable with Enter on an empty line, "Edit in editor…" for long values, and rows
// for values from where the user is (selection, active file, clipboard, a picked file: core/value-sources).
import * as vscode from 'vscode';
import type { PromptArgument } from '@modelcontextprotocol/sdk/types.js';
import type { CatalogPrompt } from '../core/catalog';
import { completeArgument } from '../core/invocation';
import { fileTooLarge, fileValue, isSourceId, sourceRows, type SourceId, type SourceSnapshot } from '../core/value-sources';
import type { ExtensionState } from '../state';
import { questionShowing } from './question-input';

const DEBOUNCE_MS = 150;
const CLIPBOARD_WAIT_MS = 500;

/** Row 0 is the input box itself (what is typed, Skip, or a hint); every other row is one value. */
interface ValueItem extends vscode.QuickPickItem { value?: string; source?: SourceId; problem?: string }

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

  /** `fixed` rows (the sources) keep rows 1..n for the whole step. */
  constructor(private readonly fixed: readonly ValueItem[] = []) {}

  /**
   * Row 0 `box`, the fixed rows (always shown while `showFixed`, else filtered by label), then every
   * value seen so far; `current` (value → description) are shown. Undefined if unchanged.
   */
  items(box: vscode.QuickPickItem, current: ReadonlyMap<string, string>, showFixed = true): ValueItem[] | undefined {
    for (const v of current.keys()) if (!this.index.has(v)) { this.index.set(v, this.values.length); this.values.push(v); }
    const items: ValueItem[] = [{ ...box, alwaysShow: true }, ...this.fixed.map(f => ({ ...f, alwaysShow: showFixed })),
      ...this.values.map(v => ({ label: v, value: v, description: current.get(v), alwaysShow: current.has(v) }))];
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
    /** Arguments whose value came from a source: not kept in the history (a whole file does not belong there). */
    const fromSource = new Set<string>();
    // What each step starts from: the failed attempt's value, or what the user gave before going Back.
    const initial: Record<string, string> = { ...options.defaults };
    for (let i = 0; i < args.length;) {
      const answer = await this.ask(target, args[i], values, i, args.length, initial[args[i].name]);
      if (answer === 'cancel') return undefined;
      if (typeof answer === 'object') { values[args[i].name] = answer.value; fromSource.add(args[i].name); i++; continue; }
      fromSource.delete(args[i].name);
      if (answer === 'back') {
        i = Math.max(0, i - 1);
        if (values[args[i].name] !== undefined) initial[args[i].name] = values[args[i].name];
        delete values[args[i].name];
        continue;
      }
      if (answer) values[args[i].name] = answer; else delete values[args[i].name];
      i++;
    }
    await this.state.remember(target.invocationName, Object.fromEntries(Object.entries(values).filter(([k]) => !fromSource.has(k))));
    return values;
  }

  private async ask(target: CatalogPrompt, arg: PromptArgument, values: Record<string, string>, step: number, total: number, initial?: string): Promise<Answer> {
    const sourceKey = `source:${target.invocationName}:${arg.name}`;
    const last = this.state.context.globalState.get<unknown>(sourceKey);
    const snapshot = await readSources(isSourceId(last) ? last : undefined);
    const answer = await this.askRows(target, arg, values, step, total, snapshot, initial);
    if (typeof answer === 'object') await this.state.context.globalState.update(sourceKey, answer.source);
    return answer;
  }

  private askRows(target: CatalogPrompt, arg: PromptArgument, values: Record<string, string>, step: number, total: number, snapshot: SourceSnapshot, initial?: string): Promise<Answer> {
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

    const rows = new ValueRows(sourceRows(snapshot).map(r => ({ label: r.label, description: r.description, value: r.value, source: r.source, problem: r.problem })));
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
      const items = rows.items(box, current, !typed);
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
      const finish = (v: Answer) => {
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
        if (item?.source) { void takeSource(item); return; }
        const value = item?.value ?? qp.value;
        if (!value && arg.required) { qp.placeholder = vscode.l10n.t('{0} is required', arg.name); return; }
        finish(value);
      });
      // While the value is edited in an editor (or a file is picked) the input steps aside; it comes back if that is dropped.
      let editing = false;
      const takeSource = async (item: ValueItem) => {
        if (item.problem) { qp.placeholder = item.problem; return; }
        if (item.source !== 'pickFile') { finish({ source: item.source!, value: item.value ?? '' }); return; }
        editing = true;
        qp.hide();
        const picked = await pickFile();
        editing = false;
        if (picked && 'value' in picked) { finish({ source: 'pickFile', value: picked.value }); return; }
        if (picked) void vscode.window.showWarningMessage(picked.problem);
        qp.show();
      };
      qp.onDidTriggerButton(async b => {
        if (b === vscode.QuickInputButtons.Back) { finish('back'); return; }
        editing = true;
        qp.hide();
        const text = await editInEditor(arg, qp.value || values[arg.name] || '');
        editing = false;
        if (text !== undefined) finish(text); else qp.show();
      });
      // A server's question during completion hides this step: it comes back when the question is answered.
      qp.onDidHide(() => { const question = questionShowing(); if (question && !editing) void question.then(() => { if (!settled) qp.show(); }); else if (!editing) finish('cancel'); });
      if (initial) qp.value = initial;
      render();
      qp.show();
      complete(qp.value);
    });
  }
}

/** A step's answer: typed/picked text, a value from a source (remembered as the argument's last source), Back or cancel. */
type Answer = string | { source: SourceId; value: string } | 'back' | 'cancel';

/** What the sources hold when a step opens. The active editor counts only for documents of files or unsaved ones. */
async function readSources(lastSource: SourceId | undefined): Promise<SourceSnapshot> {
  const editor = vscode.window.activeTextEditor;
  const doc = editor && ['file', 'untitled', 'vscode-userdata'].includes(editor.document.uri.scheme) ? editor.document : undefined;
  const name = doc ? vscode.workspace.asRelativePath(doc.uri, false) : '';
  const selection = doc && editor ? editor.selections.map(s => doc.getText(s)).filter(t => t !== '').join('\n') : '';
  // In a browser, reading the clipboard may wait on a permission prompt: the step does not wait for it.
  const clipboard = await Promise.race([
    Promise.resolve(vscode.env.clipboard.readText()).catch(() => undefined),
    new Promise<undefined>(resolve => setTimeout(() => resolve(undefined), CLIPBOARD_WAIT_MS)),
  ]);
  return {
    selection: doc ? { text: selection, file: name } : undefined,
    activeFile: doc ? { text: doc.getText(), name, path: doc.uri.scheme === 'file' ? doc.uri.fsPath : undefined } : undefined,
    clipboard,
    lastSource,
  };
}

/** "Pick a file…": a file dialog in the workspace; undefined when dismissed. */
async function pickFile(): Promise<{ value: string } | { problem: string } | undefined> {
  const [uri] = await vscode.window.showOpenDialog({ canSelectMany: false, canSelectFiles: true, canSelectFolders: false, defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri, openLabel: vscode.l10n.t('Use Contents') }) ?? [];
  if (!uri) return undefined;
  const name = vscode.workspace.asRelativePath(uri, false);
  try {
    // Refused by size before a huge file is read into memory.
    const large = fileTooLarge((await vscode.workspace.fs.stat(uri)).size, name);
    if (large) return { problem: large };
    return fileValue(await vscode.workspace.fs.readFile(uri), name);
  } catch (e) {
    return { problem: vscode.l10n.t('Could not read {0}: {1}', name, e instanceof Error ? e.message : String(e)) };
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
