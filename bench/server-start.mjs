// How the core starts a stdio server, for a raw baseline to start its own the same way: the environment
// the core passes on (the SDK's safe defaults plus the proxy, CA-certificate, locale and SSH-agent
// variables, src/core/config/stdio-launch.ts) and the home folder as working folder. What this machine's
// environment costs a server's start (NODE_EXTRA_CA_CERTS: a Node server parses the whole CA bundle
// before its first line runs) is then paid on both sides, as a client written for this machine would.
import { loadCore } from './lib.mjs';

/** `{ env, cwd }` for a stdio server whose configuration sets `env`. */
export function serverStart(env = {}) {
  const core = loadCore();
  const platform = core.hostPlatform();
  return { env: core.serverEnvironment(platform, {}, env), cwd: platform.home };
}
