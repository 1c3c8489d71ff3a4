// The multi-step argument input shared by chat, picker and tree: step N of M, Back, completion from
// the server (debounced, in-flight requests cancelled, cached per prefix), last-used values first,
// optional arguments skippable with Enter on an empty line, "Edit in editor…" for long values, and rows
// for values from where the user is (selection, active file, clipboard, a picked file, the output of a
// command: core/value-sources, core/command-output).
import * as vscode from 'vscode';
import { Workbench } from '../core/command-ids';
import type { PromptArgument } from '@modelcontextprotocol/client';
import type { CatalogPrompt } from '../core/catalog/catalog';
import { completeArgument } from '../core/run/invocation';
import { historyKey } from '../core/run/history-key';
import { labelText } from '../core/label';
import { boxRow, suggestions } from '../core/view/suggestions';
import { CompletionSession } from '../core/view/completion-session';
import { ValueRows, type ValueRow } from '../core/view/value-rows';
import {
  fileTooLarge,
  fileValue,
  formatSize,
  isSourceId,
  MAX_SOURCE_BYTES,
  sourceRows,
  type SourceId,
  type SourceSnapshot,
} from '../core/run/value-sources';
import { displayCommand, runCommandOutput, type CommandOutcome } from '../core/run/command-output';
import type { ResultStore } from '../core/run/results';
import type { Collector } from '../core/run/runner';
import { questionShowing } from './question-input';

const CLIPBOARD_WAIT_MS = 500;
/** An argument's description as the step's placeholder: one line, room for a sentence or two. */
const MAX_PLACEHOLDER_CHARS = 500;

/** Row 0 is the input box itself (what is typed, Skip, or a hint); every other row is one value. */
type ValueItem = ValueRow<SourceId> & vscode.QuickPickItem;

export class ArgumentInput {
  /** `memory` keeps each argument's last source; `results` holds its recent values. */
  constructor(
    private readonly results: ResultStore,
    private readonly memory: vscode.Memento,
  ) {}

  /** The runner's Collector: the values the user gave (merged with `given`), or undefined when they cancel. */
  readonly collect: Collector = async (target, { given, askOptional, defaults, sourced }) => {
    const args = (target.prompt.arguments ?? []).filter(a => !given[a.name] && (a.required || askOptional));
    const values = { ...given };
    /** Arguments whose value came from a source: not kept in the history (a whole file does not belong there). */
    const fromSource = new Set<string>(sourced);
    // What each step starts from: the failed attempt's value, or what the user gave before going Back.
    const initial: Record<string, string> = { ...defaults };
    for (let i = 0; i < args.length;) {
      const answer = await this.ask(target, args[i], values, i, args.length, initial[args[i].name]);
      if (answer === CANCEL) return undefined;
      if (typeof answer === 'object') {
        values[args[i].name] = answer.value;
        fromSource.add(args[i].name);
        i++;
        continue;
      }
      fromSource.delete(args[i].name);
      if (answer === BACK) {
        i = Math.max(0, i - 1);
        if (values[args[i].name] !== undefined) initial[args[i].name] = values[args[i].name];
        delete values[args[i].name];
        continue;
      }
      if (answer) values[args[i].name] = answer;
      else delete values[args[i].name];
      i++;
    }
    return { values, fromSource };
  };

  private async ask(
    target: CatalogPrompt,
    arg: PromptArgument,
    values: Record<string, string>,
    step: number,
    total: number,
    initial?: string,
  ): Promise<Answer> {
    const sourceKey = `source:${target.invocationName}:${arg.name}`;
    const last = this.memory.get<unknown>(sourceKey);
    const snapshot = await readSources(isSourceId(last) ? last : undefined);
    const answer = await this.askRows(target, arg, values, step, total, snapshot, initial);
    if (typeof answer === 'object') await this.memory.update(sourceKey, answer.source);
    return answer;
  }

  private askRows(
    target: CatalogPrompt,
    arg: PromptArgument,
    values: Record<string, string>,
    step: number,
    total: number,
    snapshot: SourceSnapshot,
    initial?: string,
  ): Promise<Answer> {
    const qp = vscode.window.createQuickPick<ValueItem>();
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
    const editButton: vscode.QuickInputButton = {
      iconPath: new vscode.ThemeIcon('edit'),
      tooltip: vscode.l10n.t('Edit in editor…'),
    };
    qp.buttons = [...(step > 0 ? [vscode.QuickInputButtons.Back] : []), editButton];
    const history = this.results.history(historyKey(target), arg.name);
    const rows = new ValueRows<SourceId>(
      sourceRows(snapshot).map(r => ({
        label: r.label,
        description: r.description,
        value: r.value,
        source: r.source,
        problem: r.problem,
      })),
    );
    const render = () => {
      const items = rows.items(
        boxRow(qp.value, arg.name, arg.required),
        suggestions(qp.value, history, session.current, target.server.def.name),
        qp.value,
      );
      if (items) qp.items = items;
    };
    const session = new CompletionSession({
      fetch: async (prefix, signal) => (await completeArgument(target, arg.name, prefix, values, signal)).values,
      show: render,
      busy: busy => {
        qp.busy = busy;
      },
    });
    const complete = (prefix: string) => session.request(prefix);

    return new Promise(resolve => {
      let settled = false;
      const finish = (v: Answer) => {
        if (settled) return;
        settled = true;
        session.dispose();
        resolve(v);
        qp.dispose();
      };
      qp.onDidChangeValue(v => {
        render();
        complete(v);
      });
      qp.onDidAccept(() => {
        // A value row is that value; row 0 (or none) is the text in the box, Skip when it is empty.
        const item = qp.selectedItems[0] ?? qp.activeItems[0];
        if (item?.source) {
          void takeSource(item);
          return;
        }
        const value = item?.value ?? qp.value;
        if (!value && arg.required) {
          qp.placeholder = vscode.l10n.t('{0} is required', name);
          return;
        }
        finish(value);
      });
      // While the value is edited in an editor (or a file is picked) the input steps aside; it comes back if that is dropped.
      let editing = false;
      // Shown again after another quick input (file dialog, command box) used the widget, its rows are
      // gone from the window (seen in VS Code 1.139): they are sent again.
      const reshow = () => {
        qp.show();
        qp.items = [...qp.items];
      };
      const takeSource = async (item: ValueItem) => {
        if (item.problem) {
          qp.placeholder = item.problem;
          return;
        }
        if (item.source !== 'pickFile' && item.source !== 'command') {
          finish({ source: item.source!, value: item.value ?? '' });
          return;
        }
        editing = true;
        qp.hide();
        const picked = item.source === 'pickFile' ? await pickFile() : await commandOutput();
        editing = false;
        if (picked && 'value' in picked) {
          if (picked.warning) void vscode.window.showWarningMessage(picked.warning);
          finish({ source: item.source, value: picked.value });
          return;
        }
        // A failed or cancelled command loses nothing: the same step comes back with what was typed.
        if (picked && !('cancelled' in picked && picked.cancelled))
          void vscode.window.showWarningMessage(picked.problem);
        reshow();
      };
      qp.onDidTriggerButton(async b => {
        if (b === vscode.QuickInputButtons.Back) {
          finish(BACK);
          return;
        }
        editing = true;
        qp.hide();
        const text = await editInEditor(arg, qp.value || values[arg.name] || '');
        editing = false;
        if (text !== undefined) finish(text);
        else reshow();
      });
      // A server's question during completion hides this step: it comes back when the question is answered.
      qp.onDidHide(() => {
        const question = questionShowing();
        if (question && !editing)
          void question.then(() => {
            if (!settled) reshow();
          });
        else if (!editing) finish(CANCEL);
      });
      if (initial) qp.value = initial;
      render();
      qp.show();
      complete(qp.value);
    });
  }
}

/** A step's answer: typed/picked text, a value from a source (remembered as the argument's last source), Back or cancel. */
// Symbols, not strings: a typed value "back" or "cancel" is a value like any other.
const BACK = Symbol('back');
const CANCEL = Symbol('cancel');
type Answer = string | { source: SourceId; value: string } | typeof BACK | typeof CANCEL;

/** What the sources hold when a step opens. The active editor counts only for documents of files or unsaved ones. */
async function readSources(lastSource: SourceId | undefined): Promise<SourceSnapshot> {
  const editor = vscode.window.activeTextEditor;
  const doc =
    editor && ['file', 'untitled', 'vscode-userdata'].includes(editor.document.uri.scheme)
      ? editor.document
      : undefined;
  const name = doc ? vscode.workspace.asRelativePath(doc.uri, false) : '';
  const selection =
    doc && editor
      ? editor.selections
          .map(s => doc.getText(s))
          .filter(t => t !== '')
          .join('\n')
      : '';
  // In a browser, reading the clipboard may wait on a permission prompt: the step does not wait for it.
  const clipboard = await Promise.race([
    Promise.resolve(vscode.env.clipboard.readText()).catch(() => undefined),
    new Promise<undefined>(resolve => setTimeout(() => resolve(undefined), CLIPBOARD_WAIT_MS)),
  ]);
  const folder = commandFolder();
  return {
    command: !vscode.workspace.isTrusted ? { restricted: true } : folder ? { folder: folder.name } : undefined,
    selection: doc ? { text: selection, file: name } : undefined,
    activeFile: doc
      ? { text: doc.getText(), name, path: doc.uri.scheme === 'file' ? doc.uri.fsPath : undefined }
      : undefined,
    clipboard,
    lastSource,
  };
}

/** Where "Output of a command…" runs: the workspace folder of the active file, else the first one (on disk). */
function commandFolder(): vscode.WorkspaceFolder | undefined {
  const active = vscode.window.activeTextEditor?.document.uri;
  const folder = (active && vscode.workspace.getWorkspaceFolder(active)) || vscode.workspace.workspaceFolders?.[0];
  return folder?.uri.scheme === 'file' ? folder : undefined;
}

/**
 * "Output of a command…": the user types a shell command, a modal shows exactly that command and
 * where it runs, and only "Run" runs it, under a notification with Cancel (which ends its process
 * group). The command comes from this input box alone: never from a server, a setting or a history,
 * and the box starts empty. Never in Restricted Mode (checked again here, after each wait).
 */
async function commandOutput(): Promise<CommandOutcome | undefined> {
  const restricted = {
    problem: vscode.l10n.t('Not available in Restricted Mode: no command runs in a workspace you have not trusted.'),
  };
  const folder = commandFolder();
  if (!vscode.workspace.isTrusted) return restricted;
  if (!folder) return undefined;
  const command = await vscode.window.showInputBox({
    title: vscode.l10n.t('Output of a command'),
    prompt: vscode.l10n.t(
      'A shell command to run in {0}; what it prints (at most {1}) becomes the value. You confirm it before it runs.',
      folder.name,
      formatSize(MAX_SOURCE_BYTES),
    ),
    placeHolder: vscode.l10n.t('for example: git diff --stat'),
    ignoreFocusOut: true,
  });
  if (!command?.trim()) return undefined;
  const run = vscode.l10n.t('Run');
  const choice = await vscode.window.showWarningMessage(
    vscode.l10n.t('Run this command in {0} ({1})?', folder.name, folder.uri.fsPath),
    { modal: true, detail: displayCommand(command) },
    run,
  );
  if (choice !== run) return undefined;
  if (!vscode.workspace.isTrusted) return restricted;
  return vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: vscode.l10n.t('Running {0}', displayCommand(command)),
      cancellable: true,
    },
    async (_progress, token) => {
      const controller = new AbortController();
      const sub = token.onCancellationRequested(() => controller.abort());
      try {
        return await runCommandOutput({ command, cwd: folder.uri.fsPath, signal: controller.signal });
      } finally {
        sub.dispose();
      }
    },
  );
}

/** "Pick a file…": a file dialog in the workspace; undefined when dismissed. */
async function pickFile(): Promise<{ value: string; warning?: undefined } | { problem: string } | undefined> {
  const [uri] =
    (await vscode.window.showOpenDialog({
      canSelectMany: false,
      canSelectFiles: true,
      canSelectFolders: false,
      defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
      openLabel: vscode.l10n.t('Use Contents'),
    })) ?? [];
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
  const use: vscode.QuickPickItem = {
    label: vscode.l10n.t('$(check) Use Text'),
    description: vscode.l10n.t("the editor's text becomes {0}", labelText(arg.name)),
  };
  const cancel: vscode.QuickPickItem = {
    label: vscode.l10n.t('$(close) Cancel'),
    description: vscode.l10n.t('back to the input'),
  };
  // The prompt first, then the editor: the editor takes the keyboard, so what the user types goes into
  // the value and an Enter makes a new line instead of choosing "Use Text" (seen in a UI test when the
  // prompt opened after the editor and took the focus back from it).
  const pick = vscode.window.showQuickPick([use, cancel], {
    title: vscode.l10n.t('Edit the value of {0} in the editor, then choose "Use Text".', labelText(arg.name)),
    ignoreFocusOut: true,
  });
  await vscode.window.showTextDocument(doc, { preview: false, preserveFocus: false });
  const choice = await pick;
  if (choice !== use) return undefined;
  const text = doc.getText();
  await vscode.window.showTextDocument(doc);
  await vscode.commands.executeCommand(Workbench.revertAndCloseEditor);
  return text;
}
