// The multi-step argument input shared by chat, picker and tree: step N of M, Back, completion from
// the server (debounced, in-flight requests cancelled, cached per prefix), last-used values first,
// optional arguments skippable with Enter on an empty line, and "Edit in editor…" for long values.
import * as vscode from 'vscode';
import type { PromptArgument } from '@modelcontextprotocol/sdk/types.js';
import type { CatalogPrompt } from '../core/catalog';
import { completeArgument } from '../core/invocation';
import type { ExtensionState } from '../state';

const DEBOUNCE_MS = 150;

interface ValueItem extends vscode.QuickPickItem { value?: string; kind?: vscode.QuickPickItemKind; action?: 'typed' | 'skip' }

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
    qp.matchOnDescription = true;
    const editButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('edit'), tooltip: vscode.l10n.t('Edit in editor…') };
    qp.buttons = [...(step > 0 ? [vscode.QuickInputButtons.Back] : []), editButton];
    const history = this.state.history(target.invocationName, arg.name);
    const cache = new Map<string, string[]>();
    let completions: string[] = [];
    let controller: AbortController | undefined;
    let timer: NodeJS.Timeout | undefined;

    const render = () => {
      const typed = qp.value;
      const items: ValueItem[] = [];
      if (typed) items.push({ label: typed, description: vscode.l10n.t('use what you typed'), value: typed, action: 'typed', alwaysShow: true });
      else if (!arg.required) items.push({ label: vscode.l10n.t('$(debug-step-over) Skip'), description: vscode.l10n.t('leave {0} empty', arg.name), action: 'skip', alwaysShow: true });
      const recent = history.filter(h => h !== typed && h.toLowerCase().includes(typed.toLowerCase()));
      if (recent.length) {
        items.push({ label: vscode.l10n.t('recently used'), kind: vscode.QuickPickItemKind.Separator });
        items.push(...recent.map(h => ({ label: h, value: h, description: vscode.l10n.t('recent'), alwaysShow: true })));
      }
      const fresh = completions.filter(c => c !== typed && !recent.includes(c));
      if (fresh.length) {
        items.push({ label: vscode.l10n.t('suggestions from {0}', target.server.def.name), kind: vscode.QuickPickItemKind.Separator });
        items.push(...fresh.map(c => ({ label: c, value: c, alwaysShow: true })));
      }
      qp.items = items;
    };

    const complete = (prefix: string) => {
      clearTimeout(timer);
      const cached = cache.get(prefix);
      if (cached) { completions = cached; render(); return; }
      timer = setTimeout(() => {
        controller?.abort();
        const mine = (controller = new AbortController());
        qp.busy = true;
        completeArgument(target, arg.name, prefix, values, mine.signal).then(result => {
          cache.set(prefix, result.values);
          if (mine.signal.aborted) return;
          completions = result.values;
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
        const item = qp.selectedItems[0] ?? qp.activeItems[0];
        const value = item?.action === 'skip' ? '' : item?.value ?? qp.value;
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
  await vscode.window.showTextDocument(doc, { preview: false });
  const use: vscode.QuickPickItem = { label: vscode.l10n.t('$(check) Use Text'), description: vscode.l10n.t('the editor\'s text becomes {0}', arg.name) };
  const cancel: vscode.QuickPickItem = { label: vscode.l10n.t('$(close) Cancel'), description: vscode.l10n.t('back to the input') };
  const choice = await vscode.window.showQuickPick([use, cancel], { title: vscode.l10n.t('Edit the value of {0} in the editor, then choose "Use Text".', arg.name), ignoreFocusOut: true });
  if (choice !== use) return undefined;
  const text = doc.getText();
  await vscode.window.showTextDocument(doc);
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  return text;
}
