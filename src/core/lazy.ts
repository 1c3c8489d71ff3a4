// Values made on first use. zod and the SDK's schemas live in dist/protocol.js, which the extension
// loads with the first connection (esbuild.mjs): a schema built at the top of a file would load it
// at activation.

/** `make()` once, on the first call; the same value afterwards. */
export function lazy<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}
