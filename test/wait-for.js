// @ts-check
// The one wait of the tests (integration, host): poll a condition, never sleep a fixed time.

/**
 * Polls `check` until it returns a truthy value and resolves with it; fails with `what` (and the last
 * value or error seen) after `timeoutMs`.
 * @template T
 * @param {() => T | Promise<T>} check
 * @param {string} what
 * @param {number} [timeoutMs]
 * @param {number} [intervalMs]
 * @returns {Promise<T>}
 */
async function waitFor(check, what, timeoutMs = 60000, intervalMs = 20) {
  // A call with its arguments in the wrong places would otherwise poll forever.
  if (typeof check !== 'function' || typeof what !== 'string' || !Number.isFinite(timeoutMs))
    throw new TypeError(`waitFor(check, what, timeoutMs): got ${typeof check}, ${typeof what}, ${typeof timeoutMs}`);
  const deadline = Date.now() + timeoutMs;
  /** @type {unknown} */
  let last;
  for (;;) {
    try {
      last = await check();
      if (last) return /** @type {T} */ (last);
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) {
      const seen = last instanceof Error ? last.message : JSON.stringify(last);
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (last: ${seen})`);
    }
    await new Promise(resolve => setTimeout(resolve, intervalMs));
  }
}

module.exports = { waitFor };
