// What the benchmark drives: the project's core, exactly as the extension and the CLI use it.
// Bundled by bench/build.mjs into bench/.out/core.cjs (same esbuild options as the real build).
export { Catalog, sanitizePromptName } from '../src/core/catalog.js';
export type { CatalogPrompt, ServerEntry } from '../src/core/catalog.js';
export { ServerConnection } from '../src/core/connection.js';
export { EraMemory, defaultEraMemory, eraKey } from '../src/core/eras.js';
export {
  argumentList,
  completeArgument,
  invokePrompt,
  parseInvocation,
  resolvePrompt,
} from '../src/core/invocation.js';
export { parseConfigObject, parseConfigText } from '../src/core/config.js';
export { escapeLabel } from '../src/core/markdown.js';
// The picker's and the tree's rows, exactly as the extension computes them before handing them to VS Code.
export { pickerItems, promptItem } from '../src/core/view/items.js';
export { CompletionSession } from '../src/core/view/completion-session.js';
export { boxRow, suggestions } from '../src/core/view/suggestions.js';
// The baseline: the SDK's own client from this same bundle, so both sides run the same SDK code.
export { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
export { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
// Saved prompt lists and the one run path (bench/cache.mjs: servers started on demand).
export { FolderStorage, PromptCache } from '../src/core/prompt-cache.js';
export { run as runPrompt } from '../src/core/runner.js';
export { ResultStore, memoryStore } from '../src/core/results.js';
