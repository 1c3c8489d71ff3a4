// Argument history is kept per server definition (historyKey, src/core/run/records/history-key.ts): values typed
// for one repository's `api` server are not offered to another repository's `api` server, nor to a
// definition that changed; the same definition finds them again whatever its variables hold.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseConfigObject } from '../../src/core/config/config';
import { substituteVariables } from '../../src/core/config/substitute-variables';
import { planServers } from '../../src/core/config/server-merge';
import type { CatalogPrompt } from '../../src/core/catalog/catalog';
import { ArgumentHistory, memoryStore } from '../../src/core/run/records/argument-history';
import { platformOf } from '../../src/core/platform';

/** The `review` prompt of the `api` server defined in `folder`'s .vscode/mcp.json, variables filled in with `token`. */
async function reviewOf(folder: string, url = 'https://api.example/mcp', token = 't1'): Promise<CatalogPrompt> {
  const config = parseConfigObject(
    { servers: { api: { type: 'http', url, headers: { Authorization: 'Bearer ${env:TOKEN}' } } } },
    'workspace',
  );
  const [planned] = planServers([{ kind: 'workspace', label: 'mcp.json', folder, config }], {
    trusted: true,
    platform: platformOf('linux', {}, '/h'),
  }).run;
  const def = await substituteVariables(planned.def, { platform: platformOf('linux', { TOKEN: token }, '/h') }, []);
  return { server: { def }, prompt: { name: 'review' } } as unknown as CatalogPrompt;
}

test("one repository's history is not offered to another repository's server of the same name", async () => {
  const store = new ArgumentHistory(memoryStore());
  const mine = await reviewOf('/work/a');
  await store.remember(mine, { code: 'secret internal code' });
  assert.deepEqual(store.values(await reviewOf('/work/a'), 'code'), ['secret internal code']);
  assert.deepEqual(store.values(await reviewOf('/work/b'), 'code'), [], 'another repository');
  assert.deepEqual(
    store.values(await reviewOf('/work/a', 'https://evil.example/mcp'), 'code'),
    [],
    'a changed definition',
  );
  assert.deepEqual(
    store.values(await reviewOf('/work/a', undefined, 't2'), 'code'),
    ['secret internal code'],
    'a new token in the environment is the same definition',
  );
});
