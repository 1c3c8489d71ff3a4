// A plain HTTP listener for the trust and consent UI tests: a workspace server's URL points at it, and
// it records every request, so a test can show that nothing reached it before the person allowed it.
const http = require('node:http');

/**
 * Listens on 127.0.0.1 (closed with the test, through ctx.defer), records each request's method, URL
 * and Authorization header, and answers 500: it is no MCP server.
 * @returns {Promise<{ url: string, requests: { method: string, url: string, authorization?: string }[] }>}
 */
async function recordingListener(ctx) {
  const requests = [];
  const server = http.createServer((req, res) => {
    requests.push({ method: req.method, url: req.url, authorization: req.headers.authorization });
    res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"not an MCP server"}');
  });
  await new Promise(resolve => server.listen(0, '127.0.0.1', resolve));
  ctx.defer(
    () =>
      new Promise(resolve => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  );
  return { url: `http://127.0.0.1:${server.address().port}`, requests };
}

module.exports = { recordingListener };
