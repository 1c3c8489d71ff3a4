// The client under test for the official MCP conformance suite (@modelcontextprotocol/conformance):
// our own core, as the extension wires it (Catalog, ServerConnection, StoredOAuthProvider, the loopback
// callback listener and signInCallback), with an in-memory secret store and a non-interactive sign-in:
// the "browser" is a fetch of the authorization URL that follows the redirect to our loopback listener.
//   node out/test/conformance/client.js <server-url>
// The suite sets MCP_CONFORMANCE_SCENARIO and, for scenarios with data (pre-registered client),
// MCP_CONFORMANCE_CONTEXT. Exit 0 when the server's prompt list was read (signed in where needed).
import { Catalog } from '../../src/core/catalog/catalog';
import { parseConfigObject } from '../../src/core/config/config';
import type { LogSink } from '../../src/core/log';
import { OAuthCallbackServer, StoredOAuthProvider, type SecretStore } from '../../src/core/protocol/oauth';
import { signInCallback } from '../../src/core/catalog/sign-in';

class MemoryStore implements SecretStore {
  private readonly map = new Map<string, string>();
  async get(key: string) {
    return this.map.get(key);
  }
  async store(key: string, value: string) {
    this.map.set(key, value);
  }
  async delete(key: string) {
    this.map.delete(key);
  }
}

const log: LogSink = {
  trace: m => process.stderr.write(`[trace] ${m}\n`),
  info: m => process.stderr.write(`[info] ${m}\n`),
  warn: m => process.stderr.write(`[warn] ${m}\n`),
  error: m => process.stderr.write(`[error] ${m}\n`),
  traceEnabled: () => true,
};

/** Sign-ins a scenario may need: one, plus a step-up (new scopes) or a retry after a refused token. */
const MAX_SIGN_INS = 3;

async function main(): Promise<void> {
  const url = process.argv[process.argv.length - 1];
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
  const store = new MemoryStore();
  catalog = new Catalog({
    start: 'lazy',
    connection: d => ({
      log,
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
    await catalog.ready();
    for (let signIns = 0; server.listError && server.connection.authorizationUrl; signIns++) {
      if (signIns === MAX_SIGN_INS) throw new Error(`still asked to sign in after ${MAX_SIGN_INS} sign-ins`);
      // The user's browser: the authorization server approves and redirects to our loopback listener.
      const page = await fetch(server.connection.authorizationUrl);
      const answer = await page.text();
      process.stderr.write(`[browser] ${page.status} ${answer}\n`);
      if (!page.ok) throw new Error(`sign-in failed: ${answer}`);
      await catalog.refresh();
      await catalog.ready();
    }
    if (server.listError) throw server.listError;
    process.stderr.write(
      `[done] ${server.connection.state.kind}, ${server.prompts.length} prompts${server.warnings.length ? `; ${server.warnings.join('; ')}` : ''}\n`,
    );
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
