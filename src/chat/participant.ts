// `@mcp`: the handler reads like the user's story — parse the slash command, ask for what is
// missing, get the prompt, show the transcript, hand it to the model.
import * as vscode from 'vscode';
import { Command } from '../core/command-ids';
import { isStarting, problemOf, serverState } from '../core/view/server-state';
import { lookAlikeWarning, serverNameWarning } from '../core/view/names';
import { PromptError } from '../core/errors';
import { argumentList } from '../core/run/invocation';
import { chatLine, readChatRequest, type ChatHandOff, type ReferenceReader } from '../core/run/requests/chat-request';
import { destination, type AfterGet } from '../core/run/destination';
import type { Collector, PromptRunner, RunOptions, RunOutcome } from '../core/run/prompt-runner';
import type { StoredResult } from '../core/run/records/result-store';
import type { Catalog } from '../core/catalog/catalog';
import { skillCommand } from '../core/catalog/skills';
import type { SkillSession } from '../core/run/skills/skill-session';
import type { ServerConfiguration } from '../workspace/server-configuration';
import { readSettings } from '../settings';
import { describeAnswerMarkdown } from '../core/protocol/questions/elicitation';
import type { QuestionWatcher } from '../core/run/question-watch';
import { heading, renderTranscript, toModelMessages, untrusted } from './render';
import { codeSpan, escapeLabel } from '../core/render/markdown';
import { continueAfterResponse, resultButtons } from './result-actions';
import { referenceReader } from './reference-reader';
import type { Platform } from '../core/platform';
import { loadSkillInChat } from './skill-chat';

export const PARTICIPANT_ID = 'mcp-prompts.mcp';

export interface ChatResultMetadata {
  invocation?: string;
  resultId?: string;
  error?: string;
  server?: string;
}

/** Set once the participant handles a request (package.json's walkthrough `onContext:`). */
const CHAT_ANSWERED_KEY = 'mcpPrompts.chatAnswered';

/** What the participant uses. */
export interface ParticipantParts {
  catalog: Catalog;
  configuration: ServerConfiguration;
  runner: PromptRunner;
  /** The argument input (src/ui/argument-input.ts). */
  collect: Collector;
  /** A run or a result a command handed to chat: claimed by the request of its line. */
  handOff: ChatHandOff;
  extensionUri: vscode.Uri;
  /** The extension host's platform: how a `#file:` path is read. */
  platform: Platform;
  /** The skills this window approved and loaded. */
  skills: SkillSession;
}

/** The participant's parts, with the reader of its requests' references (made once). */
interface Participant extends ParticipantParts {
  read: ReferenceReader<vscode.ChatPromptReference>;
}

export function registerParticipant(parts: ParticipantParts): vscode.Disposable {
  const us: Participant = { ...parts, read: referenceReader(parts.platform) };
  const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, (request, _context, stream, token) => {
    // The walkthrough's "Try it in chat" step completes on this key: a request reached us.
    void vscode.commands.executeCommand('setContext', CHAT_ANSWERED_KEY, true);
    return handle(us, request, stream, token);
  });
  // The extension's own icon: the same mark in the chat as in the Extensions view, and no second image in the .vsix.
  participant.iconPath = vscode.Uri.joinPath(parts.extensionUri, 'media', 'icon.png');
  return participant;
}

async function handle(
  parts: Participant,
  request: vscode.ChatRequest,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
): Promise<vscode.ChatResult> {
  const { catalog } = parts;
  // `/list` and `/help` are words in the prompt, not static participant commands: VS Code's own
  // command completion took the first Enter on a fully typed static command.
  const word = request.command ?? /^\/(list|help)$/i.exec(request.prompt.trim())?.[1].toLowerCase();
  if (word === 'list') return listPrompts(parts, stream);
  if (word === 'help' || !request.prompt.trim()) return help(catalog, stream);
  const line = chatLine(request.prompt);
  const controller = new AbortController();
  const sub = token.onCancellationRequested(() => controller.abort());
  const turn: ChatTurn = { parts, stream, token, signal: controller.signal };
  // The VS Code request stays at this edge: its text and references are read once into what it asks
  // for (core/run/requests/chat-request.ts); after that only its model (and the model's tool token) is used.
  try {
    // The run a command handed off for this line (nothing is parsed), or the typed text and its references.
    const asked = await readChatRequest(
      { prompt: request.prompt, references: request.references },
      catalog,
      parts.handOff,
      {
        read: parts.read,
        lookingUp: name => lookingUp(catalog, stream, name),
      },
    );
    // A run is got on the one run path; a stored result handed off (Send to Model) is shown as it is.
    if (asked.kind !== 'skill') {
      for (const note of asked.kind === 'run' ? asked.notes : []) stream.markdown(untrusted(`${note}\n\n`));
      const outcome = asked.kind === 'run' ? await parts.runner.run(asked.run, runOptions(turn)) : asked;
      return await showOutcome(turn, outcome, line, request.model);
    }
    // `@mcp /server.skill request`: the skill is loaded into this response (skill-chat.ts).
    const { skill: target, ask } = asked;
    await loadSkillInChat({
      session: parts.skills,
      target,
      ask,
      model: request.model,
      toolToken: request.toolInvocationToken,
      stream,
      token,
      signal: turn.signal,
    });
    return { metadata: { invocation: line } satisfies ChatResultMetadata };
  } catch (err) {
    return showError(catalog, stream, err, line, controller.signal.aborted);
  } finally {
    sub.dispose();
  }
}

/** One request's surroundings: what the participant uses, the response, and the request's cancel. */
interface ChatTurn {
  parts: Participant;
  stream: vscode.ChatResponseStream;
  token: vscode.CancellationToken;
  signal: AbortSignal;
}

/** While the name is looked up: the servers still starting are waited for, or the prompt is being got. */
function lookingUp(catalog: Catalog, stream: vscode.ChatResponseStream, name: string): void {
  const starting = catalog.servers.filter(s => isStarting(serverState(s)));
  if (starting.length) stream.progress(vscode.l10n.t('Waiting for {0}…', starting.map(s => s.def.name).join(', ')));
  else stream.progress(vscode.l10n.t('Getting {0}…', name));
}

/** The run in this response: its missing arguments asked for, its server started and its questions shown here. */
function runOptions({ parts, stream, signal }: ChatTurn): RunOptions {
  return {
    collect: parts.collect,
    fromDraft: true,
    signal,
    // A server's question meanwhile shows in this response: "waiting for your answer", then the transcript line.
    questions: questionsIn(stream),
    whileStarting: async (server, start) => {
      stream.progress(vscode.l10n.t('Starting {0}…', server.def.name));
      await start();
    },
  };
}

/** A run's outcome, or a stored result handed off for the model (Send to Model). */
type ChatOutcome = RunOutcome | { kind: 'result'; stored: StoredResult };

/**
 * The request's end in the response: the run's transcript and the model's answer, a failure, or
 * Cancelled; or a stored result handed off, which goes to the model as it is (the server is not asked again).
 */
async function showOutcome(
  turn: ChatTurn,
  outcome: ChatOutcome,
  line: string,
  model: vscode.LanguageModelChat,
): Promise<vscode.ChatResult> {
  const { parts, stream, token, signal } = turn;
  if (outcome.kind === 'cancelled') {
    stream.markdown(vscode.l10n.t('Cancelled.'));
    return { metadata: { invocation: line } satisfies ChatResultMetadata };
  }
  if (outcome.kind === 'failed')
    return showError(parts.catalog, stream, outcome.error, line, signal.aborted, outcome.retry);
  const { stored } = outcome;
  let then: AfterGet = 'send';
  if (outcome.kind === 'result') {
    const shown = `/${stored.result.prompt.invocationName}`;
    stream.markdown(untrusted(vscode.l10n.t('The messages of {0} shown above, as the server sent them.', shown)));
  } else {
    renderTranscript(stream, stored);
    const where = await destination('chat', 'chat', readSettings(), async () => true);
    then = where.to === 'chat' ? where.then : 'send';
  }
  const result = await answer(turn, stored, model, then === 'send');
  if (then === 'agent' && !token.isCancellationRequested) continueAfterResponse(stored);
  return result;
}

/** The model's answer to a stored result (when `send`), then the result's buttons. */
async function answer(
  { stream, token }: ChatTurn,
  stored: StoredResult,
  model: vscode.LanguageModelChat,
  send: boolean,
): Promise<vscode.ChatResult> {
  if (send && !token.isCancellationRequested) {
    stream.markdown(untrusted('\n\n---\n\n'));
    stream.markdown(heading('sparkle', model.name));
    const response = await model.sendRequest(toModelMessages(stored), {}, token);
    for await (const chunk of response.text) stream.markdown(untrusted(chunk));
  }
  // The buttons come last: VS Code folds everything before a response's closing markdown into
  // "Completed N steps", which would hide the transcript behind the model's answer.
  resultButtons(stream, stored, send && !token.isCancellationRequested);
  return { metadata: { invocation: stored.invocation, resultId: stored.id } satisfies ChatResultMetadata };
}

function showError(
  catalog: Catalog,
  stream: vscode.ChatResponseStream,
  err: unknown,
  line: string,
  cancelled: boolean,
  retry?: string,
): vscode.ChatResult {
  if (cancelled || (err instanceof PromptError && err.kind === 'cancelled')) {
    stream.markdown(vscode.l10n.t('Cancelled.'));
    return { metadata: { invocation: line } satisfies ChatResultMetadata };
  }
  const message = err instanceof Error ? err.message : String(err);
  const server = err instanceof PromptError ? err.server : undefined;
  // errorDetails shows the message itself; the stream carries only the way forward.
  if (server && catalog.servers.find(e => e.def.name === server)?.connection.authorizationUrl) {
    stream.button({ command: Command.signIn, title: vscode.l10n.t('Sign In'), arguments: [server] });
  }
  if (retry)
    stream.button({
      command: Command.retryPrompt,
      title: vscode.l10n.t('Edit Arguments and Retry…'),
      arguments: [retry],
    });
  if (server) stream.button({ command: Command.showLog, title: vscode.l10n.t('Show Log'), arguments: [server] });
  else stream.button({ command: Command.runPrompt, title: vscode.l10n.t('Pick a Prompt…') });
  return {
    errorDetails: { message },
    metadata: { invocation: line, error: message, server } satisfies ChatResultMetadata,
  };
}

function listPrompts(
  { catalog, configuration }: Pick<ParticipantParts, 'catalog' | 'configuration'>,
  stream: vscode.ChatResponseStream,
): vscode.ChatResult {
  const servers = catalog.servers;
  if (!servers.length && !configuration.blocked.length) {
    stream.markdown(
      vscode.l10n.t('No MCP servers are configured. Add one to .vscode/mcp.json or the setting mcpPrompts.servers.'),
    );
    stream.button({ command: Command.addServer, title: vscode.l10n.t('Add Server…') });
    return {};
  }
  const lines: string[] = [];
  for (const s of servers) {
    const view = serverState(s);
    const problem = problemOf(view);
    const status = isStarting(view)
      ? vscode.l10n.t('loading')
      : problem !== undefined
        ? vscode.l10n.t('error: {0}', problem)
        : '';
    const serverWarning = serverNameWarning(s.def.name);
    lines.push(
      `### ${escapeLabel(s.def.name)}${status ? ` — *${escapeLabel(status)}*` : ''}${serverWarning ? ` ⚠️ *${escapeLabel(serverWarning)}*` : ''}`,
      '',
    );
    for (const p of s.prompts) {
      const args = argumentList(p);
      const name = p.unique ? p.shortName : p.invocationName;
      // Argument names are server text too: inside one code span, on one line, they stay literal.
      const warning = lookAlikeWarning(p);
      const lookAlike = warning ? ` ⚠️ *${escapeLabel(warning)}*` : '';
      lines.push(
        `- ${codeSpan(`/${name}${args ? ` ${args}` : ''}`)}${p.prompt.title ? ` **${escapeLabel(p.prompt.title)}**` : ''}${p.prompt.description ? ` — ${escapeLabel(p.prompt.description)}` : ''}${lookAlike}`,
      );
    }
    for (const k of s.skills)
      lines.push(
        `- ${codeSpan(`/${skillCommand(k)}`)} *${escapeLabel(vscode.l10n.t('skill'))}* — ${escapeLabel(k.skill.frontmatter.description)}`,
      );
    if (!s.prompts.length && !s.skills.length && !status) lines.push(`- *${vscode.l10n.t('no prompts')}*`);
    lines.push('');
  }
  for (const b of configuration.blocked)
    lines.push(`### ${escapeLabel(b.name)} — *${vscode.l10n.t('not started: the workspace is not trusted')}*`, '');
  stream.markdown(untrusted(lines.join('\n')));
  stream.markdown(
    untrusted(
      `\n${vscode.l10n.t('Arguments marked * are required. Run one with `@mcp /name key=value` or positional values.')}`,
    ),
  );
  return {};
}

function help(catalog: Catalog, stream: vscode.ChatResponseStream): vscode.ChatResult {
  stream.markdown(
    untrusted(
      [
        vscode.l10n.t('**MCP Prompts** runs the prompts of your MCP servers.'),
        '',
        vscode.l10n.t('- `@mcp /list` shows every prompt, grouped by server.'),
        vscode.l10n.t(
          '- `@mcp /server.prompt key=value "positional value"` runs a prompt; missing required arguments are asked for.',
        ),
        vscode.l10n.t('- `@mcp /prompt` works alone when no other server has a prompt of that name.'),
        vscode.l10n.t(
          '- `@mcp /server.skill request` loads a skill of that server into the chat, after you approve its files (`/server.skill:name` when a prompt has the same name).',
        ),
      ].join('\n'),
    ),
  );
  stream.button({ command: Command.runPrompt, title: vscode.l10n.t('Pick a Prompt…') });
  if (!catalog.servers.length) stream.button({ command: Command.addServer, title: vscode.l10n.t('Add Server…') });
  return {};
}

/** A server's question during this request: "waiting for your answer", then a transcript line saying what was asked and answered. */
function questionsIn(stream: vscode.ChatResponseStream): QuestionWatcher {
  return {
    asking: question => stream.progress(vscode.l10n.t('Waiting for your answer from {0}…', question.server)),
    // Server text: escaped by the core, and rendered untrusted (no commands, no HTML).
    answered: (question, reply) =>
      stream.markdown(new vscode.MarkdownString(`${describeAnswerMarkdown(question, reply)}\n\n`, false)),
  };
}
