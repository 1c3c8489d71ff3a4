// The MCP SDK, its schemas and zod are a bundle of their own, dist/protocol.js, that esbuild.mjs's
// stand-in for those packages requires on the first use of any of their values (normally the first
// connect), in the extension and in the CLI. The stand-in reports that load here, so the extension can
// log it and tests can see that activation did without it. In the tests the SDK is bundled directly and
// nothing is reported.

type Listener = (ms: number) => void;
const listeners: Listener[] = [];
let loadedMs: number | undefined;

/** Called by the stand-in once, with the milliseconds the require took. */
export function reportProtocolLoad(ms: number): void {
  loadedMs = ms;
  for (const l of listeners.splice(0)) l(ms);
}

/** Calls `listener` when the protocol bundle loads (at once when it has loaded already). */
export function onProtocolLoad(listener: Listener): void {
  if (loadedMs === undefined) listeners.push(listener);
  else listener(loadedMs);
}
