// @ts-check
// What the tests ask of the machine's processes and ports (integration, host and UI tests, the host harness).
const fs = require('fs');
const net = require('net');

/**
 * Whether process `pid` still runs. An exited one that is not reaped yet (a zombie: an orphan waits for
 * PID 1, which on some machines reaps late) answers kill(pid, 0) but runs nothing, so it does not count.
 * @param {number} pid
 * @returns {boolean}
 */
function processRunning(pid) {
  try {
    process.kill(pid, 0);
  } catch (err) {
    // EPERM: it runs, under another user.
    if (/** @type {NodeJS.ErrnoException} */ (err).code !== 'EPERM') return false;
  }
  let stat;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    // Gone since kill(pid, 0) on Linux; without /proc (macOS) kill's answer stands, so "it exited" is never assumed.
    return process.platform !== 'linux';
  }
  // "pid (command) state …": the command may hold spaces and parentheses, so take the last ")".
  return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
}

/**
 * A free TCP port on 127.0.0.1 (listen on 0, read it, close).
 * @returns {Promise<number>}
 */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

module.exports = { processRunning, freePort };
