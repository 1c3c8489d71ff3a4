// `npm start` only, never shipped: VS Code refuses every chat participant ("Language model unavailable")
// until a language model is selected, so the demo window gets this one. It is not an AI: it answers with
// what it received (text as is, images and other data as a short note), saying so in its name and its
// first line. On the first start of a demo profile it also opens the MCP Prompts view and walkthrough.
const vscode = require('vscode');

const VENDOR = 'mcp-prompts-demo';
const NAME = 'Demo echo model — not an AI';
const MODEL = {
  id: 'demo-echo',
  name: NAME,
  family: 'demo-echo',
  version: '1',
  tooltip: 'Echoes what it receives. Install a real model (e.g. GitHub Copilot) for real answers.',
  maxInputTokens: 1000000,
  maxOutputTokens: 100000,
  capabilities: { toolCalling: true, imageInput: true },
};
const WALKTHROUGH = 'mcp-prompts.mcp-prompts#gettingStarted';
const FIRST_START_KEY = 'demo.firstStartDone';

function describePart(part) {
  if (part instanceof vscode.LanguageModelTextPart) return part.value;
  if (part instanceof vscode.LanguageModelDataPart) {
    const kind = part.mimeType.startsWith('image/') ? 'image' : 'data';
    return `\n\n*(${kind} ${part.mimeType}, ${part.data.length} bytes)*\n\n`;
  }
  if (part && typeof part.value === 'string') return part.value;
  return '';
}

/** The reply: a heading that says what this is, then each message it received with its role. */
function echo(messages) {
  const body = messages.map(m => {
    const role = m.role === vscode.LanguageModelChatMessageRole.User ? 'user' : 'assistant';
    const content = typeof m.content === 'string' ? m.content : (m.content || []).map(describePart).join('');
    return `**[${role}]** ${content}`;
  });
  return [`*${NAME}: this is what it received (${messages.length} messages).*`, ...body].join('\n\n');
}

const provider = {
  provideLanguageModelChatInformation() {
    return [MODEL];
  },
  async provideLanguageModelChatResponse(_model, messages, _options, progress, token) {
    const text = echo(messages);
    // A few chunks, so the answer streams like a real model's.
    const size = Math.max(1, Math.ceil(text.length / 4));
    for (let i = 0; i < text.length; i += size) {
      if (token.isCancellationRequested) return;
      progress.report(new vscode.LanguageModelTextPart(text.slice(i, i + size)));
      await new Promise(resolve => setImmediate(resolve));
    }
  },
  async provideTokenCount(_model, text) {
    return Math.ceil((typeof text === 'string' ? text : JSON.stringify(text)).length / 4);
  },
};

/** First start of this demo profile: the MCP Prompts view and the walkthrough, as a newcomer needs them. */
async function firstStart(context) {
  if (context.globalState.get(FIRST_START_KEY)) return;
  await context.globalState.update(FIRST_START_KEY, true);
  await vscode.extensions.getExtension('mcp-prompts.mcp-prompts')?.activate();
  // The walkthrough first: VS Code 1.139 starts tracking its steps then, so showing the view afterwards
  // checks "Browse the sidebar" (shown before, it never would be).
  await vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH, false);
  await vscode.commands.executeCommand('mcpPrompts.focusView');
}

function activate(context) {
  context.subscriptions.push(vscode.lm.registerLanguageModelChatProvider(VENDOR, provider));
  // The workbench asks a vendor for its models lazily; asking once puts this one in the chat's picker.
  vscode.lm.selectChatModels({ vendor: VENDOR }).then(undefined, () => {});
  firstStart(context).catch(err => console.error(`demo first start: ${err}`));
}

module.exports = { activate, deactivate() {}, echo };
