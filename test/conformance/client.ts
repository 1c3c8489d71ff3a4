// The client under test for the official MCP conformance suite (@modelcontextprotocol/conformance): our
// own core doing what the extension does with a server (Catalog, ServerConnection, StoredOAuthProvider,
// the loopback callback listener and signInCallback, PromptRunner, the skill loader), with an in-memory
// secret store and a non-interactive person: the "browser" is a fetch of the authorization URL that
// follows the redirect to our loopback listener, and the person runs a prompt and loads every skill.
//   node out/test/conformance/client.js <server-url>
// The suite sets MCP_CONFORMANCE_SCENARIO and, for scenarios with data (pre-registered client),
// MCP_CONFORMANCE_CONTEXT. What the person does:
// 1. the server is listed (its prompts and skills), signing in where it asks;
// 2. the first prompt is run (its required arguments given), as from the picker;
// 3. every skill is loaded as the extension loads it: the approval shows its entry (skills/get), then
//    SKILL.md is read and checked, then each file it lists (as the model asks for them); a refused file
//    ends that skill's load. In `sep-2640-client-no-prefetch` the person looks at the approval and
//    declines: nothing is read;
// 4. the server is started again, as in a window that remembers the sign-in (tokens, registration) but
//    not the server's protocol era, so the start asks the version probe (a window that remembers the era
//    too sends a tools-only server nothing), and listed, signing in again where it asks: a server whose
//    tokens went stale meanwhile, or whose authorization server moved (SEP-2352), is met as a person meets it.
// Exit 0 when every step ended as the extension would end it (a refused skill file is such an end).
import { Catalog, type ServerEntry } from '../../src/core/catalog/catalog';
import { parseConfigObject } from '../../src/core/config/config';
import type { LogSink } from '../../src/core/log';
import { OAuthCallbackServer, StoredOAuthProvider } from '../../src/core/protocol/transport/oauth';
import { MemorySecrets } from '../memory-secrets';
import { EraMemory, eraKey } from '../../src/core/protocol/transport/eras';
import { signInCallback } from '../../src/core/catalog/sign-in';
import { memoryRecords, PromptRunner } from '../../src/core/run/prompt-runner';
import { readSkill, skillManifest } from '../../src/core/run/skills/skill-loader';
import type { CatalogSkill } from '../../src/core/catalog/skills';

const started = Date.now();
/** One line of the client's log, with the milliseconds since it started: where a slow scenario's time went. */
const say = (tag: string, m: string) => process.stderr.write(`[${tag} +${Date.now() - started}] ${m}\n`);
const log: LogSink = {
  trace: m => say('trace', m),
  info: m => say('info', m),
  warn: m => say('warn', m),
  error: m => say('error', m),
  traceEnabled: () => true,
};

/** Sign-ins one listing may need: one, plus a step-up (new scopes) or a retry after a refused token. */
const MAX_SIGN_INS = 3;

/** Scenarios whose person only looks (lists, reads an approval) and loads nothing. */
const LOOKS_ONLY = new Set(['sep-2640-client-no-prefetch']);

/** Lists the server, signing in (through the "browser") as often as it asks, up to MAX_SIGN_INS. */
async function listSignedIn(catalog: Catalog, server: ServerEntry): Promise<void> {
  await catalog.ready();
  for (let signIns = 0; server.listError && server.connection.authorizationUrl; signIns++) {
    if (signIns === MAX_SIGN_INS) throw new Error(`still asked to sign in after ${MAX_SIGN_INS} sign-ins`);
    // The user's browser: the authorization server approves and redirects to our loopback listener.
    const page = await fetch(server.connection.authorizationUrl);
    const answer = await page.text();
    say('browser', `${page.status} ${answer}`);
    if (!page.ok) throw new Error(`sign-in failed: ${answer}`);
    await catalog.refresh();
    await catalog.ready();
  }
  if (server.listError) throw server.listError;
  say(
    'listed',
    `${server.connection.state.kind}, ${server.prompts.length} prompts, ${server.skills.length} skills${server.warnings.length ? `; ${server.warnings.join('; ')}` : ''}`,
  );
}

/** Runs the server's first prompt as the picker does, its required arguments given. */
async function runFirstPrompt(catalog: Catalog, server: ServerEntry): Promise<void> {
  const prompt = catalog.prompts.find(p => p.server === server);
  if (!prompt) return;
  const values = Object.fromEntries(
    (prompt.prompt.arguments ?? []).filter(a => a.required).map(a => [a.name, 'conformance']),
  );
  const outcome = await new PromptRunner(catalog, memoryRecords()).run({ prompt, values }, {});
  if (outcome.kind === 'failed') throw outcome.error;
  say('prompt', `${prompt.invocationName}: ${outcome.kind}`);
}

/** Loads a skill as the extension does: the approval's entry, SKILL.md checked, then each listed file. */
async function loadSkill(skill: CatalogSkill, approve: boolean): Promise<void> {
  const manifest = await skillManifest(skill);
  say('skill', `${skill.name}: approval shows ${manifest.summary.files.map(f => f.path).join(', ')}`);
  if (!approve) return say('skill', `${skill.name}: declined`);
  try {
    for (const file of manifest.summary.files) {
      const read = await readSkill(manifest, file.path === 'SKILL.md' ? undefined : file.path);
      say('skill', `${skill.name}: ${read.file.path} read and checked (${read.file.size} bytes)`);
    }
  } catch (err) {
    // What the extension does with a refused file: says so, loads nothing, reads nothing more.
    say('refused', err instanceof Error ? err.message : String(err));
  }
}

async function main(): Promise<void> {
  const url = process.argv[process.argv.length - 1];
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
  const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as {
    client_id?: string;
    client_secret?: string;
  };
  const entry = {
    type: 'http',
    url,
    ...(context.client_id ? { clientId: context.client_id, clientSecret: context.client_secret } : {}),
  };
  const [def] = parseConfigObject({ servers: { conformance: entry } }, 'user', 'conformance').servers;

  let catalog: Catalog | undefined;
  const callback = new OAuthCallbackServer(query => signInCallback(catalog!)(query));
  const redirect = `http://127.0.0.1:${await callback.start()}/oauth/callback`;
  const store = new MemorySecrets();
  const eras = new EraMemory();
  catalog = new Catalog({
    start: 'lazy',
    // A person's refresh lists at once: no other change to wait for and gather.
    debounceMs: 0,
    connection: d => ({
      log,
      eras,
      // A server of the suite's parallel mode on a busy machine answers late (run.mjs CLIENT_TIMEOUT_MS).
      timeoutMs: 120000,
      restart: false,
      oauth:
        d.transport.type === 'stdio'
          ? undefined
          : new StoredOAuthProvider(`${d.id}:${d.transport.url}`, store, redirect, {
              server: d.name,
              clientName: 'MCP Prompts conformance',
              clientId: d.transport.clientId,
              clientSecret: d.transport.clientSecret,
            }),
    }),
  });
  catalog.setServers([def]);
  const server = catalog.server(def.id)!;
  try {
    await listSignedIn(catalog, server);
    await runFirstPrompt(catalog, server);
    for (const skill of server.skills) await loadSkill(skill, !LOOKS_ONLY.has(scenario));
    // The next start, the sign-in remembered and the era not.
    await server.connection.stop();
    eras.delete(eraKey(def));
    await catalog.refresh();
    await listSignedIn(catalog, server);
  } finally {
    await catalog.dispose();
    callback.dispose();
  }
}

main().then(
  () => process.exit(0),
  err => {
    process.stderr.write(`[failed] ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
