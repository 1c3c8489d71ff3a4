// A catalog entry as the catalog makes it for a server that listed its prompts, without a connection:
// the plain data the view and run layers read (picker rows, prompt groups, key bindings).
import type { Prompt } from '@modelcontextprotocol/client';
import { parseConfigObject, type ServerDefinition } from '../../src/core/config/config';
import type { CatalogPrompt, ServerEntry } from '../../src/core/catalog/catalog';
import type { HeldEntry } from '../../src/core/config/server-merge';

/** A running server `name` (or `def`) listing `prompts`; `entry` overrides fields such as `loading`. */
export function listedServer(
  name: string,
  prompts: Prompt[],
  o: { def?: ServerDefinition; source?: 'user' | 'workspace'; entry?: Partial<ServerEntry> } = {},
): ServerEntry {
  const def = o.def ?? parseConfigObject({ servers: { [name]: { command: 'node' } } }, o.source ?? 'user').servers[0];
  const e = {
    id: def.id,
    def,
    prompts: [] as CatalogPrompt[],
    loading: false,
    warnings: [],
    cached: false,
    connection: { state: { kind: 'running', info: {} } },
    ...o.entry,
  } as unknown as ServerEntry;
  e.prompts = prompts.map(prompt => ({
    server: e,
    prompt,
    invocationName: `${e.id}.${prompt.name}`,
    shortName: prompt.name,
    unique: true,
  }));
  return e;
}

/** A workspace server `name` that does not start because the workspace is not trusted. */
export function untrustedServer(name: string): HeldEntry {
  const def = parseConfigObject({ servers: { [name]: { command: 'node' } } }, 'workspace').servers[0];
  return { def, origin: '.vscode/mcp.json', reason: 'untrusted', message: `${name} waits for trust` };
}
