// A workbench with one OAuth-protected HTTP server (test/fixtures/oauth.mjs) in `.vscode/mcp.json`,
// as `secured`, for the UI tests that sign in through the browser.
const path = require('node:path');
const { openWorkbench, root } = require('./harness');

/**
 * Starts the OAuth fixture (with `args`), opens a workbench on it and on `others` (more servers of the
 * same `.vscode/mcp.json`); the fixture closes with the test.
 */
async function openOAuthWorkbench(ctx, args = [], others = {}) {
  const { startOAuthServer } = await import(path.join(root, 'test', 'fixtures', 'launch.mjs'));
  const server = await startOAuthServer({ args });
  ctx.defer(() => server.close());
  const config = { servers: { secured: { type: 'http', url: server.url }, ...others } };
  const ui = await openWorkbench(ctx, { files: { '.vscode/mcp.json': JSON.stringify(config, null, 2) } });
  // code-server maps localhost URLs opened from a remote window to its port proxy (/proxy/PORT/…),
  // which the bare VS Code server in this harness does not serve: the browser does that mapping here,
  // for the page and for where it redirects (route handlers do not see redirects).
  const unproxy = href => {
    const url = new URL(href);
    const m = /^\/proxy\/(\d+)(\/.*)$/.exec(url.pathname);
    return m ? `http://127.0.0.1:${m[1]}${m[2]}${url.search}` : href;
  };
  await ui.page.context().route(/\/proxy\/\d+\//, async route => {
    const direct = unproxy(route.request().url());
    const response = await route.fetch({ url: direct, maxRedirects: 0 });
    const headers = response.headers();
    if (headers.location) headers.location = unproxy(new URL(headers.location, direct).href);
    await route.fulfill({ response, headers });
  });
  return { ui, server };
}

module.exports = { openOAuthWorkbench };
