// When to start a crashed server again: a pure decision over the crash times and the clock, so the
// policy is tested with an injected clock and the connection keeps only the timer.

export interface RestartPolicy {
  initialDelayMs: number;
  maxDelayMs: number;
  maxCrashes: number;
  windowMs: number;
}

/** 1 s doubling to 30 s; a fifth crash within 3 minutes stops the restarts. */
export const DEFAULT_RESTART: RestartPolicy = {
  initialDelayMs: 1000,
  maxDelayMs: 30000,
  maxCrashes: 5,
  windowMs: 180000,
};

/** `crashes`: the crash times still inside the window, this one included (the caller keeps them). */
export type RestartDecision =
  { kind: 'restart'; delayMs: number; crashes: number[] } | { kind: 'give-up'; crashes: number[] };

/** A crash at `now` after the earlier ones in `crashes`: crashes older than the window are forgotten. */
export function afterCrash(policy: RestartPolicy, crashes: readonly number[], now: number): RestartDecision {
  const recent = [...crashes.filter(t => now - t < policy.windowMs), now];
  if (recent.length >= policy.maxCrashes) return { kind: 'give-up', crashes: recent };
  return {
    kind: 'restart',
    delayMs: Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** (recent.length - 1)),
    crashes: recent,
  };
}
