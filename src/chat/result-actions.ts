// "Continue in Agent" and "Insert into Chat Input": a stored prompt result handed to the user's own
// agent (with its tools), and the short action row under a transcript.
//
// What VS Code 1.139 accepts from an extension (workbench.action.chat.open, tried in the real host):
// - `mode: 'agent'`; `previousRequests` (finished turns: the agent's history keeps user/assistant roles);
//   `query` (sent, or only filled with `isPartialQuery`);
// - `attachFiles` with URIs of our in-memory file system (mcp-prompts-media:): attached as files whose
//   contents the agent reads. An image file (.png, .jpg, …) becomes an image attachment only from file:
//   (in a remote or web window our files arrive as vscode-remote: and are dropped) or http(s) (fetched by
//   the desktop app; the web app's fetcher throws "Not implemented" and the whole command fails);
// - `toolIds`: the tool is attached as a reference. Images therefore go through our image tool
//   (image-tool.ts): the text names each image with its handle and the tool is attached.
import * as vscode from 'vscode';
import { Command, Workbench } from '../core/command-ids';
import {
  attachmentName,
  buildHandOff,
  handOffText,
  IMAGE_TOOL,
  type HandOff,
  type HandOffSource,
} from '../core/render/agent-request';
import type { ResultStore, StoredResult } from '../core/run/records/result-store';
import { mediaUri } from '../resources';
import { roleLabel } from './render';
import { registerImageTool } from './image-tool';
import { labelText } from '../core/label';

/** The server and prompt a stored result came from. */
export function sourceOf(stored: StoredResult): HandOffSource {
  return { server: stored.result.prompt.server.def.name, prompt: stored.result.prompt.invocationName };
}

export function handOffFor(stored: StoredResult): HandOff {
  return buildHandOff(stored.transcript, {
    source: sourceOf(stored),
    opener: `/${stored.invocation}`,
    continueText: vscode.l10n.t('Continue.'),
    resultId: stored.id,
  });
}

/** The resources as files, each named for its server (`github · notes.md`), never as a workspace file. */
function attachFiles(stored: StoredResult, h: HandOff): vscode.Uri[] {
  const server = sourceOf(stored).server;
  return h.files.map(f => mediaUri(stored.id, f.index, f.part, attachmentName(server, f.part.fileName)));
}

/** The image tool, attached when there are images to see. */
function toolIds(h: HandOff): string[] | undefined {
  return h.images.length ? [IMAGE_TOOL.name] : undefined;
}

/** Opens a new chat in agent mode whose request is the prompt, with its resources attached as files. */
export async function continueInAgent(stored: StoredResult): Promise<void> {
  const h = handOffFor(stored);
  // A new session: the agent acts on the prompt alone, not on the conversation that produced it.
  await vscode.commands.executeCommand(Workbench.newChat);
  await vscode.commands.executeCommand(Workbench.openChat, {
    mode: 'agent',
    previousRequests: h.previousRequests,
    attachFiles: attachFiles(stored, h),
    toolIds: toolIds(h),
    query: h.query,
  });
}

/** Fills the chat input with the transcript (roles as headings) and attaches its resources as files. */
export async function insertIntoChat(stored: StoredResult): Promise<void> {
  const h = handOffFor(stored);
  await vscode.commands.executeCommand(Workbench.openChat, {
    query: handOffText(
      stored.transcript,
      { user: roleLabel('user'), assistant: roleLabel('assistant') },
      sourceOf(stored),
      stored.id,
    ),
    isPartialQuery: true,
    attachFiles: attachFiles(stored, h),
    toolIds: toolIds(h),
  });
}

/**
 * `mcpPrompts.chat.afterGet: agent`: the hand-off starts after this response has ended (its result is
 * sent back before the commands below reach the workbench); a new chat while it runs would cut it short.
 */
export function continueAfterResponse(stored: StoredResult): void {
  setTimeout(() => {
    continueInAgent(stored).catch(
      err => void vscode.window.showErrorMessage(labelText(String(err instanceof Error ? err.message : err), 1000)),
    );
  }, 0);
}

type Action = vscode.QuickPickItem & { command: string };

/** "More…" under a transcript: every action on a result in one quick pick, so the row stays short. */
async function moreActions(stored: StoredResult): Promise<void> {
  const actions: Action[] = [
    {
      label: `$(sparkle) ${vscode.l10n.t('Continue in Agent')}`,
      detail: vscode.l10n.t('A new agent chat whose request is this prompt, its resources attached as files'),
      command: Command.continueInAgent,
    },
    {
      label: `$(send) ${vscode.l10n.t('Send to Model')}`,
      detail: vscode.l10n.t('The selected model answers this prompt, without tools'),
      command: Command.sendToModel,
    },
    {
      label: `$(insert) ${vscode.l10n.t('Insert into Chat Input')}`,
      detail: vscode.l10n.t('The text in the chat input, its resources attached as files, to edit before sending'),
      command: Command.insertIntoChat,
    },
    { label: `$(copy) ${vscode.l10n.t('Copy as Markdown')}`, command: Command.copyMarkdown },
    { label: `$(go-to-file) ${vscode.l10n.t('Open as Document')}`, command: Command.openTranscript },
  ];
  const pick = await vscode.window.showQuickPick(actions, {
    title: vscode.l10n.t('Actions for {0}', stored.result.prompt.invocationName),
  });
  if (pick) await vscode.commands.executeCommand(pick.command, stored.id);
}

/** The row under a transcript: Continue in Agent, Send to Model when the model was not asked, More…. */
export function resultButtons(stream: vscode.ChatResponseStream, stored: StoredResult, sent: boolean): void {
  stream.button({
    command: Command.continueInAgent,
    title: vscode.l10n.t('Continue in Agent'),
    arguments: [stored.id],
  });
  if (!sent)
    stream.button({ command: Command.sendToModel, title: vscode.l10n.t('Send to Model'), arguments: [stored.id] });
  stream.button({ command: Command.moreActions, title: vscode.l10n.t('More…'), arguments: [stored.id] });
}

export function registerHandOff(results: ResultStore): vscode.Disposable[] {
  const stored = (id: unknown) => results.get(id) ?? results.latest;
  return [
    registerImageTool(results),
    vscode.commands.registerCommand(Command.continueInAgent, async (id?: unknown) => {
      const r = stored(id);
      if (r) await continueInAgent(r);
      else {
        // Nothing to hand over yet: say so and offer the way forward.
        const run = vscode.l10n.t('Pick a Prompt…');
        if ((await vscode.window.showInformationMessage(vscode.l10n.t('No prompt has been run yet.'), run)) === run)
          await vscode.commands.executeCommand(Command.runPrompt);
      }
    }),
    vscode.commands.registerCommand(Command.moreActions, async (id?: unknown) => {
      const r = stored(id);
      if (r) await moreActions(r);
    }),
  ];
}
