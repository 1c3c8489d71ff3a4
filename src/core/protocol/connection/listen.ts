// List changes on a 2026-07-28 connection: that revision tells of them only on a `subscriptions/listen`
// stream, whose notifications the SDK hands to the same handler a 2025 server's reach. The stream is
// opened again when the server drops it ('remote'), not after our own close or the server's deliberate end.
import * as l10n from '@vscode/l10n';
import type { Client } from '@modelcontextprotocol/client';
import { describeCause } from '../../errors.js';
import type { LogSink } from '../../log.js';
import { offersSkills } from './skill-requests.js';

/** A dropped stream is opened again after this pause, this many times per connection. */
const RELISTEN_DELAY_MS = 500;
const MAX_LISTEN_DROPS = 20;

export interface ListenContext {
  server: string;
  log: LogSink;
  /** The connection's client now: a stream of a client no longer current is closed. */
  current(): Client | undefined;
  /** Changes may have been missed (the stream was down): list again. */
  changed(): void;
  warn(line: string): void;
}

export function listenForChanges(client: Client, ctx: ListenContext, drops = 0): void {
  if (client.getProtocolEra() !== 'modern') return;
  const capabilities = client.getServerCapabilities();
  const filter = {
    ...(capabilities?.prompts?.listChanged && { promptsListChanged: true }),
    // A server's skills are resources: their list changes with the resources (SEP-2640).
    ...(capabilities?.resources?.listChanged && offersSkills(client) && { resourcesListChanged: true }),
  };
  if (!Object.keys(filter).length) return;
  client.listen(filter).then(
    subscription => {
      if (ctx.current() !== client) return void subscription.close().catch(() => undefined);
      void subscription.closed.then(why => {
        if (why !== 'remote' || ctx.current() !== client) return;
        if (drops + 1 > MAX_LISTEN_DROPS)
          return ctx.log.warn(
            l10n.t(
              '{0} dropped the stream of list changes {1} times; the list is refreshed only on request now',
              ctx.server,
              drops + 1,
            ),
          );
        ctx.log.info(l10n.t('{0} dropped the stream of list changes; listening again', ctx.server));
        const timer = setTimeout(() => {
          if (ctx.current() !== client) return;
          listenForChanges(client, ctx, drops + 1);
          // Changes while nobody listened are lost: list again.
          ctx.changed();
        }, RELISTEN_DELAY_MS);
        timer.unref?.();
      });
    },
    (err: unknown) => {
      if (ctx.current() === client)
        ctx.warn(l10n.t('{0}: list changes cannot be followed: {1}', ctx.server, describeCause(err)));
    },
  );
}
