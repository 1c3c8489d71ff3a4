/** See wait-for.js: polls `check` until it is truthy; fails with `what` after `timeoutMs` (60 s). */
export function waitFor<T>(
  check: () => T | Promise<T>,
  what: string,
  timeoutMs?: number,
  intervalMs?: number,
): Promise<T>;
