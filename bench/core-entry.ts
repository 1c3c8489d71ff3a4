// What the benchmark drives: the project's core, exactly as the extension and the CLI use it.
// Bundled by bench/build.mjs into bench/.out/core.cjs (same esbuild options as the real build).
export { Catalog } from '../src/core/catalog/catalog.js';
export { sanitizePromptName } from '../src/core/catalog/name-index.js';
export type { CatalogPrompt, ServerEntry } from '../src/core/catalog/catalog.js';
export { ServerConnection } from '../src/core/protocol/connection/connection.js';
export { EraMemory, defaultEraMemory, eraKey } from '../src/core/protocol/transport/eras.js';
export { argumentList, completeArgument, parseInvocation, requestFromLine } from '../src/core/run/invocation.js';
export { parseConfigObject, parseConfigText } from '../src/core/config/config.js';
export { escapeLabel } from '../src/core/render/markdown.js';
// The picker's and the tree's rows, exactly as the extension computes them before handing them to VS Code.
export { pickerItems } from '../src/core/view/picker-rows.js';
export { promptItem } from '../src/core/view/tree-items.js';
export { COMPLETION_DEBOUNCE_MS, CompletionSession } from '../src/core/view/completion-session.js';
export { boxRow, suggestions } from '../src/core/view/suggestions.js';
// The baseline: the SDK's own client from this same bundle, so both sides run the same SDK code.
export { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
export { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
// Saved prompt lists and the one run path (bench/cache.mjs: servers started on demand).
export { FolderStorage } from '../src/core/catalog/cache-storage.js';
export { PromptCache } from '../src/core/catalog/prompt-cache.js';
export { PromptRunner, memoryRecords } from '../src/core/run/prompt-runner.js';
// How the core starts a stdio server (its environment, its working folder): a raw baseline starts its own the same way.
export { serverEnvironment } from '../src/core/config/stdio-launch.js';
export { hostPlatform } from '../src/core/platform.js';
