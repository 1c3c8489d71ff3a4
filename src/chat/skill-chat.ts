// `@mcp /server.skill [request]`: the skill's entry is asked for again (the manifest held from now on),
// the person approves the load in the modal, SKILL.md is read and checked, and its body is shown and
// sent to the model as the server's text (core/render/skill-text.ts), with the request after the name.
// The model may read the skill's other files through the file tool, each with the person's confirmation
// and only those the manifest lists; a refusal is one message naming the server and the file.
import * as vscode from 'vscode';
import type { CatalogSkill } from '../core/catalog/skills';
import { formatBytes } from '../core/render/content';
import { escapeLabel, textToMarkdown } from '../core/render/markdown';
import { boundedSkillText, SKILL_FILE_TOOL, skillContext } from '../core/render/skill-text';
import { markerId, readSkill, skillManifest, type SkillManifest } from '../core/run/skills/skill-loader';
import type { SkillSession } from '../core/run/skills/skill-session';
import { heading, untrusted } from './render';
import { approveLoad, type LoadApproval } from './skill-approval';

/** Model requests of one load: the answer, and the file reads it asks for in between. */
const MAX_ROUNDS = 6;

export interface SkillLoad {
  session: SkillSession;
  target: CatalogSkill;
  /** What the person wrote after the skill's name: their request, for the model with the skill. */
  ask: string;
  /** The model picked for this request, and the request's token for the tools it calls. */
  model: vscode.LanguageModelChat;
  toolToken: vscode.ChatParticipantToolToken;
  stream: vscode.ChatResponseStream;
  token: vscode.CancellationToken;
  signal: AbortSignal;
}

/** Loads the skill into this chat request; throws a PromptError (shown by the participant) when it cannot. */
export async function loadSkillInChat(load: SkillLoad): Promise<void> {
  const { session, target, stream, signal } = load;
  stream.progress(vscode.l10n.t('Getting the skill {0} from {1}…', target.name, target.server.def.name));
  const manifest = await skillManifest(target, signal);
  const approval = await approveLoad(manifest, session);
  if (!approval) {
    stream.markdown(untrusted(escapeLabel(vscode.l10n.t('The skill {0} was not loaded.', manifest.summary.name))));
    return;
  }
  const skillMd = await readSkill(manifest, undefined, signal);
  const held = session.hold(manifest);
  showSkill(stream, manifest, skillMd.body ?? '', approval);
  if (load.token.isCancellationRequested) return;
  await answer(load, skillContext(manifest.summary, skillMd.body ?? '', held.handle, markerId()), manifest);
}

/** What the person sees: whose skill it is, its files and the tools it asks for, then its body, inert. */
function showSkill(stream: vscode.ChatResponseStream, m: SkillManifest, body: string, approval: LoadApproval): void {
  const s = m.summary;
  stream.markdown(heading('book', vscode.l10n.t('Skill {0} from {1}', s.name, s.server)));
  const lines = [
    vscode.l10n.t(
      'Loaded into this chat as text from the MCP server "{0}": not a local skill, and it grants no tools.',
      s.server,
    ),
    approval === 'remembered' ? vscode.l10n.t('You approved these files earlier in this session.') : '',
    vscode.l10n.t('Files: {0}', s.files.map(f => `${f.label} (${formatBytes(f.size)})`).join(', ')),
    s.tools ? vscode.l10n.t('Asks for tools (not granted): {0}', s.tools) : '',
  ];
  stream.markdown(untrusted(`${lines.filter(Boolean).map(escapeLabel).join('  \n')}\n\n---\n\n`));
  // Rendered as the server's markdown, but with no HTML: a `<!--` shows as text instead of hiding the rest.
  stream.markdown(untrusted(`${textToMarkdown(boundedSkillText(s, body))}\n\n---\n\n`));
}

/** The model's answer with the skill as context; its file reads go through the file tool (confirmed by the person). */
async function answer(load: SkillLoad, context: string, m: SkillManifest): Promise<void> {
  const { model, stream, token } = load;
  const tool = vscode.lm.tools.find(t => t.name === SKILL_FILE_TOOL.name);
  const tools = tool && m.summary.files.length > 1 ? [tool] : [];
  const ask =
    load.ask.trim() ||
    vscode.l10n.t('I loaded this skill. Say in one or two sentences what it is for, then wait for my request.');
  const messages = [vscode.LanguageModelChatMessage.User(context), vscode.LanguageModelChatMessage.User(ask)];
  stream.markdown(heading('sparkle', model.name));
  for (let round = 0; round < MAX_ROUNDS && !token.isCancellationRequested; round++) {
    const response = await model.sendRequest(messages, { tools }, token);
    const calls: vscode.LanguageModelToolCallPart[] = [];
    for await (const part of response.stream) {
      if (part instanceof vscode.LanguageModelTextPart) stream.markdown(untrusted(part.value));
      else if (part instanceof vscode.LanguageModelToolCallPart) calls.push(part);
    }
    if (!calls.length) return;
    messages.push(vscode.LanguageModelChatMessage.Assistant(calls));
    const results: vscode.LanguageModelToolResultPart[] = [];
    for (const call of calls) results.push(new vscode.LanguageModelToolResultPart(call.callId, await run(call, load)));
    messages.push(vscode.LanguageModelChatMessage.User(results));
  }
}

/** One tool call of the model: only the file tool, through VS Code (which shows its confirmation here). */
async function run(call: vscode.LanguageModelToolCallPart, load: SkillLoad): Promise<vscode.LanguageModelTextPart[]> {
  if (call.name !== SKILL_FILE_TOOL.name)
    return [
      new vscode.LanguageModelTextPart(vscode.l10n.t('Only the tool {0} is available here.', SKILL_FILE_TOOL.name)),
    ];
  try {
    const result = await vscode.lm.invokeTool(
      call.name,
      { input: call.input, toolInvocationToken: load.toolToken },
      load.token,
    );
    return result.content.filter((p): p is vscode.LanguageModelTextPart => p instanceof vscode.LanguageModelTextPart);
  } catch (err) {
    return [new vscode.LanguageModelTextPart(err instanceof Error ? err.message : String(err))];
  }
}
