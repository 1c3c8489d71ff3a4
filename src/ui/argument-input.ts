// The multi-step argument input shared by chat, picker and tree: step N of M (each step is
// ./argument-step.ts), Back, optional arguments skippable with Enter on an empty line, and the inputs a
// step hands over to: "Edit in editor…" for long values, Pick a file… and Output of a command… (values
// from where the user is: core/run/requests/value-sources, core/run/requests/command-output).
import * as vscode from 'vscode';
import { Workbench } from '../core/command-ids';
import type { PromptArgument } from '@modelcontextprotocol/client';
import type { CatalogPrompt } from '../core/catalog/catalog';
import {
  clipboardValue,
  fileTooLarge,
  fileValue,
  formatSize,
  isSourceId,
  MAX_SOURCE_BYTES,
  type SourceId,
  type SourceSnapshot,
} from '../core/run/requests/value-sources';
import {
  commandShell,
  displayCommand,
  runCommandOutput,
  type CommandOutcome,
} from '../core/run/requests/command-output';
import type { Platform } from '../core/platform';
import type { ArgumentHistory } from '../core/run/records/argument-history';
import type { Collector } from '../core/run/prompt-runner';
import { askArgument, BACK, CANCEL, type Answer } from './argument-step';
import { labelText } from '../core/label';

const CLIPBOARD_WAIT_MS = 500;

export class ArgumentInput {
  /** `memory` keeps each argument's last source; `history` holds its recent values; `platform` runs commands. */
  constructor(
    private readonly history: ArgumentHistory,
    private readonly memory: vscode.Memento,
    private readonly platform: Platform,
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
    const history = this.history.values(target, arg.name);
    const answer = await askArgument(
      { target, arg, values, step, total, snapshot, history, initial },
      { pickFile, readClipboard, commandOutput: () => commandOutput(this.platform), editInEditor },
    );
    if (typeof answer === 'object') await this.memory.update(sourceKey, answer.source);
    return answer;
  }
}

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
  // In a browser window reading the clipboard asks the page's permission, and where it is refused VS Code
  // waits on its own notification: there the row reads it when chosen, and no step waits for it.
  const clipboard =
    vscode.env.uiKind === vscode.UIKind.Web
      ? { unread: true as const }
      : await Promise.race([
          clipboardText(),
          new Promise<undefined>(resolve => setTimeout(() => resolve(undefined), CLIPBOARD_WAIT_MS)),
        ]);
  const folder = commandFolder();
  return {
    command: !vscode.workspace.isTrusted ? { restricted: true } : folder ? { folder: folder.name } : undefined,
    selection: doc ? { text: selection, file: name } : undefined,
    activeFile: doc
      ? {
          text: doc.getText(),
          name,
          ...(doc.uri.scheme === 'file'
            ? { path: doc.uri.fsPath, shownPath: vscode.workspace.asRelativePath(doc.uri) }
            : {}),
        }
      : undefined,
    clipboard,
    lastSource,
  };
}

/** The clipboard's text when its row is chosen in a browser window (VS Code asks for the permission). */
async function readClipboard(): Promise<{ value: string } | { problem: string }> {
  return clipboardValue((await clipboardText()) ?? '');
}

/** The clipboard's text, or undefined where it cannot be read. */
function clipboardText(): Promise<string | undefined> {
  return Promise.resolve(vscode.env.clipboard.readText()).catch(() => undefined);
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
async function commandOutput(platform: Platform): Promise<CommandOutcome | undefined> {
  const restricted = {
    problem: vscode.l10n.t('Not available in Restricted Mode: no command runs in a workspace you have not trusted.'),
  };
  const folder = commandFolder();
  if (!vscode.workspace.isTrusted) return restricted;
  if (!folder) return undefined;
  // Named as it runs: on Windows cmd.exe and the code page it is switched to.
  const shell = commandShell(platform).name;
  const command = await vscode.window.showInputBox({
    title: vscode.l10n.t('Output of a command'),
    prompt: vscode.l10n.t(
      'A command for {2} to run in {0}; what it prints (at most {1}) becomes the value. You confirm it before it runs.',
      folder.name,
      formatSize(MAX_SOURCE_BYTES),
      shell,
    ),
    placeHolder: vscode.l10n.t('for example: git diff --stat'),
    ignoreFocusOut: true,
  });
  if (!command?.trim()) return undefined;
  const run = vscode.l10n.t('Run');
  const choice = await vscode.window.showWarningMessage(
    vscode.l10n.t('Run this command in {0} ({1}) with {2}?', folder.name, folder.uri.fsPath, shell),
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
        return await runCommandOutput({ command, cwd: folder.uri.fsPath, platform, signal: controller.signal });
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
