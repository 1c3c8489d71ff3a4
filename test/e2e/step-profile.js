// Where a UI test's time goes, line by line (MCP_PROMPTS_E2E_PROFILE=1): every Playwright call a test
// makes is timed and counted against the first line of a test file in its stack, and each window's
// close prints its slowest lines. For finding long waits; off by default.
const HELPERS = new Set(['harness.js', 'window-actions.js', 'consent.js', 'step-profile.js']);
const METHODS = {
  locator: [
    'waitFor',
    'click',
    'dblclick',
    'fill',
    'hover',
    'press',
    'innerText',
    'textContent',
    'isVisible',
    'evaluate',
    'evaluateAll',
    'count',
    'screenshot',
  ],
  page: ['waitForFunction', 'evaluate', 'screenshot', 'goto', 'reload'],
  keyboard: ['type', 'press', 'insertText'],
};
const patched = new WeakSet();
const spent = new Map();

/** The first test file's line in the stack; else the first helper's; else 'elsewhere'. */
function callerLine() {
  let helper;
  for (const frame of new Error().stack.split('\n').slice(2)) {
    const m = /\/test\/e2e\/([^/:]+):(\d+):\d+\)?$/.exec(frame.trim());
    if (!m || m[1] === 'step-profile.js') continue;
    if (!HELPERS.has(m[1])) return `${m[1]}:${m[2]}`;
    helper ??= `${m[1]}:${m[2]}`;
  }
  return helper ?? 'elsewhere';
}

function patch(proto, names) {
  if (!proto || patched.has(proto)) return;
  patched.add(proto);
  for (const name of names) {
    const original = proto[name];
    if (typeof original !== 'function') continue;
    proto[name] = async function (...args) {
      const where = `${callerLine()} ${name}`;
      const started = Date.now();
      try {
        return await original.apply(this, args);
      } finally {
        const entry = spent.get(where) ?? { ms: 0, calls: 0 };
        entry.ms += Date.now() - started;
        entry.calls++;
        spent.set(where, entry);
      }
    };
  }
}

const on = Boolean(process.env.MCP_PROMPTS_E2E_PROFILE);

/** Times the calls made on `page` and its locators and keyboard from now on. */
function profileSteps(page) {
  if (!on) return;
  patch(Object.getPrototypeOf(page), METHODS.page);
  patch(Object.getPrototypeOf(page.locator('body')), METHODS.locator);
  patch(Object.getPrototypeOf(page.keyboard), METHODS.keyboard);
}

/** The slowest lines since the last report, printed and forgotten. */
function reportSteps(name) {
  if (!on) return;
  const rows = [...spent.entries()].sort((a, b) => b[1].ms - a[1].ms).slice(0, 12);
  spent.clear();
  for (const [where, { ms, calls }] of rows)
    console.log(`  | step ${name} ${(ms / 1000).toFixed(1)} s ${calls}× ${where}`);
}

module.exports = { profileSteps, reportSteps };
