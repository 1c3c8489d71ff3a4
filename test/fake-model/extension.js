// Test-only extension, never shipped. Two things the real VS Code host lacks without a Copilot account:
// 1. A deterministic language model "Fake Echo" (vendor mcp-prompts-fake, id fake-echo). The chat refuses to
//    run any participant until a model is selected. Its answer describes what it received:
//      FAKE-MODEL received 2 messages: [user] look: <image image/png 1234 bytes> [assistant] ok
//    (a text part as is; a data part as ` <image MIME N bytes>`, or ` <data MIME N bytes>` when not an
//    image; a tool result past 20,000 characters as its first 10,000 and last 1,000 with the count between,
//    as the chat would take long to show it all; messages joined by one space), streamed in up to 3 chunks.
//    It calls tools when told to: the user's request may hold `call TOOL_NAME {JSON input}` (the input may
//    be left out: `{}`), one or more times. The model makes those calls in order, one per answer, of the
//    tools it was offered (a name it was not offered is a word like any other); once all were made
//    (their results are in the messages) it echoes as above. Without such words, before any tool result
//    came back, it calls our image tool once per `call #x with image "HANDLE"` and a skill tool for each
//    call written out as `mcpPrompts_skillFile {"skill":"s1","file":"…"}` (or mcpPrompts_loadSkill).
//    Given a skill (a SKILL.md the person invoked with /name reaches it in full, after ` <skill URI>`), it
//    follows the skill's numbered steps that say "Call `TOOL`": each tool it was offered once, in the order
//    the steps first name them, one per answer; `{}` for a tool without required inputs, else the JSON
//    object the person's request holds (the stand-in for the values a model takes from the person's words).
// 2. A default chat participant that, like Copilot, sends a plain chat message (no @participant) with the
//    history and its attachments to the selected model and streams the answer: attached images as image
//    data, attached files as ` <file URI>` plus their contents (image files as image data; a skill's
//    SKILL.md as ` <skill URI>` plus its whole text). It offers the
//    model the tools attached by `#name` and, in agent mode, those switched on in the chat's tool picker,
//    and runs the calls the model makes (a failed or declined call answers with ` <tool-error …>`). Being
//    default needs the proposed API defaultChatParticipant: the host is started with --enable-proposed-api
//    for this extension.
const vscode = require('vscode');

const VENDOR = 'mcp-prompts-fake';
const MODEL = {
  id: 'fake-echo',
  name: 'Fake Echo',
  family: 'fake',
  version: '1',
  tooltip: 'Deterministic test model (mcp-prompts tests)',
  maxInputTokens: 1000000,
  maxOutputTokens: 100000,
  capabilities: { toolCalling: true, imageInput: true },
};

function roleName(role) {
  if (role === vscode.LanguageModelChatMessageRole.User) return 'user';
  if (role === vscode.LanguageModelChatMessageRole.Assistant) return 'assistant';
  return String(role);
}

function dataPart(part) {
  const kind = part.mimeType.startsWith('image/') ? 'image' : 'data';
  return ` <${kind} ${part.mimeType} ${part.data.length} bytes>`;
}

/** Tool results longer than this are echoed as their start and end. */
const ECHO_RESULT_CHARS = 20000;

function shortened(text) {
  if (text.length <= ECHO_RESULT_CHARS) return text;
  return `${text.slice(0, 10000)} …[${text.length - 11000} characters]… ${text.slice(-1000)}`;
}

function describePart(part) {
  if (part instanceof vscode.LanguageModelTextPart) return part.value;
  if (part instanceof vscode.LanguageModelDataPart) return dataPart(part);
  if (part && typeof part.value === 'string') return part.value; // other text-like parts
  if (part && typeof part.mimeType === 'string' && part.data) return dataPart(part);
  if (part && typeof part.name === 'string' && typeof part.callId === 'string')
    return ` <tool-call ${part.name} ${JSON.stringify(part.input)}>`;
  if (part && typeof part.callId === 'string')
    return ` <tool-result ${shortened((part.content || []).map(describePart).join(''))}>`;
  return ' <unknown part>';
}

function describe(messages) {
  const body = messages
    .map(m => {
      const content = typeof m.content === 'string' ? m.content : (m.content || []).map(describePart).join('');
      return `[${roleName(m.role)}] ${content}`;
    })
    .join(' ');
  return `FAKE-MODEL received ${messages.length} messages: ${body}`;
}

/** Splits into 3 chunks (fewer for very short text) so the response really streams. */
function chunks(text) {
  const size = Math.ceil(text.length / Math.min(3, Math.max(1, text.length)));
  const out = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

const CALL_IMAGE = /call #\w+ with image "([^"]+)"/g;
/** A call written out as `<tool name> {json input}` (a skill's text lists its files so; a test types one). */
const CALL_WRITTEN = /\b(mcpPrompts_skillFile|mcpPrompts_loadSkill) (\{[^\n]*?\})/g;

/** The text parts of a message, joined. */
function textOf(message) {
  return typeof message.content === 'string'
    ? message.content
    : (message.content || []).map(p => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
}

/** The JSON object that starts at `text[start]` (`{`), or undefined when it does not close. */
function jsonObjectAt(text, start) {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return text.slice(start, i + 1);
  }
  return undefined;
}

/** `call TOOL_NAME {JSON}` in the text, in order: [{ name, input }]. Text inside an input is not read for more. */
function callDirectives(text) {
  const out = [];
  const re = /\bcall (\w+)/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const brace = /^\s*\{/.exec(text.slice(re.lastIndex));
    const json = brace ? jsonObjectAt(text, re.lastIndex + brace[0].length - 1) : undefined;
    out.push({ name: m[1], input: json ? JSON.parse(json) : {} });
    if (json) re.lastIndex += brace[0].length - 1 + json.length;
  }
  return out;
}

/** Where the user's request is: the last user message that is not a tool result (-1: none). */
function requestAt(messages) {
  const isToolResult = m =>
    typeof m.content !== 'string' && (m.content || []).some(p => p instanceof vscode.LanguageModelToolResultPart);
  let at = messages.length - 1;
  while (at >= 0 && (messages[at].role !== vscode.LanguageModelChatMessageRole.User || isToolResult(messages[at])))
    at--;
  return at;
}

/**
 * The next tool call the user's request tells the model to make, if any: the request is the last user
 * message that is not a tool result; only tools the model was offered count (other words after "call"
 * are text), and the calls made since the request are counted, so each directive runs once.
 */
function directedCall(messages, options) {
  const at = requestAt(messages);
  if (at < 0) return undefined;
  const offered = new Set((options.tools || []).map(t => t.name));
  const directives = callDirectives(textOf(messages[at])).filter(d => offered.has(d.name));
  const made = messages
    .slice(at + 1)
    .flatMap(m => (typeof m.content === 'string' ? [] : m.content || []))
    .filter(p => p instanceof vscode.LanguageModelToolCallPart).length;
  const next = directives[made];
  return next && new vscode.LanguageModelToolCallPart(`call-${made}`, next.name, next.input);
}

/** A step of a skill that says to call a tool: `1. Call \`mcpPrompts_list\``. */
const SKILL_STEP = /^\s*\d+\.\s+Call `(\w+)`/gm;

/**
 * The next call of the skill the request carries (see the head of this file), if any: the request is the
 * last user message that is not a tool result, the skill its text after ` <skill `, the input the JSON
 * object of the person's own words (the text before the first reference).
 */
function skillCall(messages, options) {
  const at = requestAt(messages);
  if (at < 0) return undefined;
  const text = textOf(messages[at]);
  const skill = text.indexOf(' <skill ');
  if (skill < 0) return undefined;
  const tools = options.tools || [];
  const steps = [];
  for (const m of text.slice(skill).matchAll(SKILL_STEP)) {
    const tool = tools.find(t => t.name === m[1]);
    if (tool && !steps.includes(tool)) steps.push(tool);
  }
  const made = messages
    .slice(at + 1)
    .flatMap(m => (typeof m.content === 'string' ? [] : m.content || []))
    .filter(p => p instanceof vscode.LanguageModelToolCallPart).length;
  const next = steps[made];
  if (!next) return undefined;
  const words = text.slice(0, text.search(/ <(skill|file|reference) /));
  const brace = words.indexOf('{');
  const json = brace >= 0 ? jsonObjectAt(words, brace) : undefined;
  const needsInput = (next.inputSchema?.required ?? []).length > 0;
  return new vscode.LanguageModelToolCallPart(`skill-${made}`, next.name, needsInput && json ? JSON.parse(json) : {});
}

/**
 * The tool calls the model makes (see the head of this file), only before any tool result came back:
 * one per named image handle, and one per call written out for a tool it was given.
 */
function toolCalls(messages, options) {
  const tools = options.tools || [];
  if (!tools.length || messages.some(m => (m.content || []).some(p => p instanceof vscode.LanguageModelToolResultPart)))
    return [];
  const text = messages
    .map(m =>
      typeof m.content === 'string'
        ? m.content
        : (m.content || []).map(p => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join(''),
    )
    .join('\n');
  const imageTool = tools.find(t => t.inputSchema && t.inputSchema.properties && t.inputSchema.properties.image);
  const calls = imageTool
    ? [...text.matchAll(CALL_IMAGE)].map(m => ({ name: imageTool.name, input: { image: m[1] } }))
    : [];
  // Written calls come from what the user side sent: an earlier answer that echoed a skill's text (its
  // file list) is no request to read those files again.
  const userText = messages
    .filter(m => m.role === vscode.LanguageModelChatMessageRole.User)
    .map(m =>
      typeof m.content === 'string'
        ? m.content
        : (m.content || []).map(p => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join(''),
    )
    .join('\n');
  for (const m of userText.matchAll(CALL_WRITTEN))
    if (tools.some(t => t.name === m[1])) calls.push({ name: m[1], input: JSON.parse(m[2]) });
  return calls.map((c, i) => new vscode.LanguageModelToolCallPart(`call-${i}`, c.name, c.input));
}

const provider = {
  provideLanguageModelChatInformation() {
    return [MODEL];
  },
  async provideLanguageModelChatResponse(model, messages, options, progress, token) {
    const directed = directedCall(messages, options) ?? skillCall(messages, options);
    if (directed) {
      progress.report(directed);
      return;
    }
    const calls = toolCalls(messages, options);
    if (calls.length) {
      for (const call of calls) progress.report(call);
      return;
    }
    for (const piece of chunks(describe(messages))) {
      if (token.isCancellationRequested) return;
      progress.report(new vscode.LanguageModelTextPart(piece));
      await new Promise(resolve => setImmediate(resolve)); // yield so each chunk travels on its own
    }
  },
  async provideTokenCount(model, text) {
    return Math.ceil((typeof text === 'string' ? text : describe([text])).length / 4);
  },
};

/** Image file names an agent reads as pictures (VS Code's own list for attached image files). */
const IMAGE_FILE = /\.(png|jpe?g|gif|webp|bmp)$/i;
const IMAGE_TYPES = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
};

/**
 * One attached reference as model parts, the way an agent hands attachments on: image data as an image;
 * a file as ` <file URI>` followed by its contents (an image file as an image part, text as text), so a
 * test sees both what VS Code attached and what reached the model.
 */
async function referenceParts(ref) {
  const value = ref.value;
  if (value instanceof vscode.ChatReferenceBinaryData) {
    return [vscode.LanguageModelDataPart.image(await value.data(), value.mimeType)];
  }
  const uri = value instanceof vscode.Uri ? value : value instanceof vscode.Location ? value.uri : undefined;
  if (!uri)
    return [
      new vscode.LanguageModelTextPart(
        ` <reference ${ref.id} ${typeof value === 'string' ? JSON.stringify(value.slice(0, 80)) : typeof value}>`,
      ),
    ];
  const skill = /\/SKILL\.md$/.test(uri.path);
  const parts = [new vscode.LanguageModelTextPart(` <${skill ? 'skill' : 'file'} ${uri.toString(true)}>`)];
  try {
    const bytes = await vscode.workspace.fs.readFile(uri);
    // A skill is instructions for the model: it reaches the model whole, as an agent hands it on.
    if (skill) return [...parts, new vscode.LanguageModelTextPart(` ${Buffer.from(bytes).toString('utf8')}`)];
    const ext = IMAGE_FILE.exec(uri.path);
    if (ext) parts.push(vscode.LanguageModelDataPart.image(bytes, IMAGE_TYPES[ext[1].toLowerCase()]));
    else {
      const text = Buffer.from(bytes).toString('utf8');
      const binary = bytes.includes(0) || text.includes('\ufffd');
      parts.push(
        new vscode.LanguageModelTextPart(
          binary ? ` <binary ${bytes.length} bytes>` : ` <contents ${JSON.stringify(text.slice(0, 200))}>`,
        ),
      );
    }
  } catch (e) {
    parts.push(new vscode.LanguageModelTextPart(` <unreadable ${(e && e.code) || e}>`));
  }
  return parts;
}

/** Chat history and the new request as model messages, the way a default agent would send them. */
async function toMessages(request, context) {
  const messages = [];
  for (const turn of context.history) {
    if (turn instanceof vscode.ChatRequestTurn) messages.push(vscode.LanguageModelChatMessage.User(turn.prompt));
    else if (turn instanceof vscode.ChatResponseTurn) {
      const text = turn.response.map(p => (p instanceof vscode.ChatResponseMarkdownPart ? p.value.value : '')).join('');
      messages.push(vscode.LanguageModelChatMessage.Assistant(text));
    }
  }
  const parts = [new vscode.LanguageModelTextPart(request.prompt)];
  for (const ref of request.references || []) parts.push(...(await referenceParts(ref)));
  messages.push(vscode.LanguageModelChatMessage.User(parts));
  return messages;
}

async function defaultHandler(request, context, stream, token) {
  const model = request.model;
  if (!model) {
    stream.markdown('FAKE-DEFAULT-AGENT: no model selected');
    return {};
  }
  const messages = await toMessages(request, context);
  // The tools the person attached (`#name`), and in agent mode those switched on in the chat's tool picker.
  const referenced = new Set((request.toolReferences || []).map(r => r.name));
  for (const [tool, enabled] of request.tools || []) if (enabled) referenced.add(tool.name);
  const tools = vscode.lm.tools
    .filter(t => referenced.has(t.name))
    .map(t => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
  // The agent's loop: the model's tool calls are run and their results sent back, until it answers in text.
  for (let round = 0; round < 6; round++) {
    const response = await model.sendRequest(messages, { tools }, token);
    const calls = [];
    for await (const part of response.stream) {
      if (part instanceof vscode.LanguageModelTextPart) stream.markdown(part.value);
      else if (part instanceof vscode.LanguageModelToolCallPart) calls.push(part);
    }
    if (!calls.length) break;
    messages.push(vscode.LanguageModelChatMessage.Assistant(calls));
    const results = [];
    for (const call of calls) {
      // A tool that fails or that the person declines answers with an error the model reads, as agents do.
      let content;
      try {
        const result = await vscode.lm.invokeTool(
          call.name,
          { input: call.input, toolInvocationToken: request.toolInvocationToken },
          token,
        );
        content = result.content;
      } catch (e) {
        content = [
          new vscode.LanguageModelTextPart(`<tool-error ${(e && e.name) || 'Error'}: ${(e && e.message) || e}>`),
        ];
      }
      results.push(new vscode.LanguageModelToolResultPart(call.callId, content));
    }
    messages.push(vscode.LanguageModelChatMessage.User(results));
  }
  return {};
}

function activate(context) {
  context.subscriptions.push(vscode.lm.registerLanguageModelChatProvider(VENDOR, provider));
  context.subscriptions.push(vscode.chat.createChatParticipant('mcp-prompts-test.default', defaultHandler));
  // The workbench asks a vendor for its models lazily; until something asks, the chat's model picker stays
  // empty ("Sign in to use Copilot"). Asking once here makes Fake Echo appear in the picker.
  vscode.lm.selectChatModels({ vendor: VENDOR }).then(undefined, () => {});
}

function deactivate() {}

module.exports = { activate, deactivate, describe };
