/** See processes.js: whether `pid` runs (a zombie does not). */
export function processRunning(pid: number): boolean;
/** See processes.js: a free TCP port on 127.0.0.1. */
export function freePort(): Promise<number>;
