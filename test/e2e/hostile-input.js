// What the UI tests type and configure to play a hostile server or a hostile agent call.
const path = require('node:path');
const { root } = require('./harness');

/** A stdio entry for test/fixtures/hostile-server.mjs (add `env.HOSTILE_RECORD` to record what it receives). */
const TRAP = {
  type: 'stdio',
  command: process.execPath,
  args: [path.join(root, 'test', 'fixtures', 'hostile-server.mjs')],
};

/** `text` in Unicode tag characters: a model reads it as ASCII, a person sees nothing. */
function tagged(text) {
  return [...text].map(c => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');
}

/** JSON with every character past ASCII as a `\uXXXX` escape: a person types it with plain keys. */
function asciiJson(value) {
  return JSON.stringify(value).replace(/[^\x20-\x7e]/g, c => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

module.exports = { TRAP, tagged, asciiJson };
