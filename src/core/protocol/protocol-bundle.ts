// The second bundle of the extension, dist/protocol.js: the MCP SDK client and its transports. The
// extension's build resolves these two packages to a stand-in (esbuild.mjs, `lazyProtocol`) that
// requires this file on the first use of any of their values, normally the first connect; activation
// with every server cached and on demand never loads it. The CLI bundles the SDK directly.
export * from '@modelcontextprotocol/client';
export * from '@modelcontextprotocol/client/stdio';
export * from '@modelcontextprotocol/client/ext/skills';
