// Reading every page of one server's prompts within bounds a hostile server cannot pass: pages,
// prompts (what a saved list keeps) and the bytes of the whole listing (see docs/limits.md). Past a
// bound no further page is asked for, and what was read so far is kept with an error naming the server
// and the bound. Malformed items are skipped with a warning; a repeated cursor ends the listing.
import * as l10n from '@vscode/l10n';
import type { Prompt } from '@modelcontextprotocol/client';
import { PromptSchema } from '@modelcontextprotocol/core';
import * as z from 'zod/v4';
import { PromptError, toPromptError } from '../errors.js';
import { stringifyJson } from '../json.js';
import { lazy } from '../lazy.js';
import type { ServerConnection } from '../protocol/connection/connection.js';
import { offersSkills, type Skill } from '../protocol/connection/skill-requests.js';
import type { CacheScope } from './prompt-cache.js';
import { MAX_CACHED_PROMPTS } from './saved-prompts.js';
import { readSkills } from './skill-listing.js';

/** Pages of one listing. */
export const MAX_PAGES = 1000;
/** Prompts of one listing: what a saved list keeps. */
export const MAX_LISTED_PROMPTS = MAX_CACHED_PROMPTS;
/** Bytes of one listing, all its pages together: what a saved list may take on disk. */
export const MAX_LISTING_BYTES = 16 * 1024 * 1024;

const promptPage = lazy(() => z.array(PromptSchema));

export type ListingHints = { ttlMs?: number; cacheScope?: CacheScope };

export interface Listing {
  /** What was read: every prompt, or those before a bound or a failure. */
  prompts: Prompt[];
  /** The server's skills (none without the extension); undefined when their listing failed. */
  skills?: Skill[];
  warnings: string[];
  hints: ListingHints;
  error?: PromptError;
}

export interface ListingOptions {
  /** No person started the listing: a question the server asks during it is cancelled, not shown. */
  background?: boolean;
  maxPages?: number;
  maxPrompts?: number;
  maxBytes?: number;
}

/**
 * Every page of the server's prompts, then its skills (skill-listing.ts), starting it if needed; never
 * throws (a failure is `error`; one of the skills listing is a warning, and their list is kept as it was).
 */
export async function readListing(connection: ServerConnection, options: ListingOptions = {}): Promise<Listing> {
  const listing: Listing = { prompts: [], warnings: [], hints: {} };
  const server = connection.def.name;
  // The whole listing keeps the server from an idle stop, between pages too.
  const release = connection.hold();
  try {
    const client = await connection.connect();
    if (client.getServerCapabilities()?.prompts) await readPages(connection, client, listing, options);
    else if (!offersSkills(client)) listing.warnings.push(l10n.t('{0} offers no prompts', server));
    const skills = await readSkills(connection, client, options);
    listing.warnings.push(...skills.warnings);
    // Stopped meanwhile: no warning, and the skills shown stay (as the prompts do).
    if (skills.error) {
      if (skills.error.kind !== 'cancelled') listing.warnings.push(skills.error.message);
    } else if (skills.skills) {
      listing.skills = skills.skills;
      if (offersSkills(client))
        listing.hints = mergeHints(listing.hints, skills.hints, !client.getServerCapabilities()?.prompts);
    }
  } catch (err) {
    listing.error = toPromptError(err, server, l10n.t('listing prompts'));
  } finally {
    release();
  }
  return listing;
}

async function readPages(
  connection: ServerConnection,
  client: Awaited<ReturnType<ServerConnection['connect']>>,
  listing: Listing,
  options: ListingOptions,
): Promise<void> {
  const server = connection.def.name;
  const bounds = {
    pages: options.maxPages ?? MAX_PAGES,
    prompts: options.maxPrompts ?? MAX_LISTED_PROMPTS,
    bytes: options.maxBytes ?? MAX_LISTING_BYTES,
  };
  const startBytes = connection.bytesReceived;
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; ; page++) {
    if (page >= bounds.pages)
      throw refusal(
        l10n.t('{0} sent more than {1} pages of prompts; the rest was not read', server, bounds.pages),
        server,
      );
    // Every page on the client the listing began on: a stop between pages ends the listing.
    const result = await connection.listPromptsPage(cursor, { client, background: options.background });
    listing.hints = mergeHints(listing.hints, result as { ttlMs?: unknown; cacheScope?: unknown }, page === 0);
    addPage(server, result.prompts ?? [], listing);
    cursor = result.nextCursor;
    // At the bound with more to come: the next page is not asked for.
    if (
      listing.prompts.length > bounds.prompts ||
      (listing.prompts.length === bounds.prompts && cursor !== undefined)
    ) {
      listing.prompts.length = bounds.prompts;
      throw refusal(l10n.t('{0} listed more than {1} prompts; the rest was not read', server, bounds.prompts), server);
    }
    if (connection.bytesReceived - startBytes > bounds.bytes)
      throw refusal(
        l10n.t('{0} sent more than {1} MB of prompts; the rest was not read', server, bounds.bytes / 1048576),
        server,
      );
    if (cursor === undefined) return;
    if (seen.has(cursor))
      throw refusal(l10n.t('{0} repeated the page cursor "{1}"; listing stopped', server, cursor.slice(0, 40)), server);
    seen.add(cursor);
  }
}

/** One page's valid prompts; one parse for the usual, all-valid page, item by item only when something is wrong. */
function addPage(server: string, items: unknown[], listing: Listing): void {
  const whole = promptPage().safeParse(items);
  if (whole.success) return void listing.prompts.push(...whole.data);
  for (const raw of items) {
    const parsed = PromptSchema.safeParse(raw);
    if (parsed.success) listing.prompts.push(parsed.data);
    else listing.warnings.push(l10n.t('{0} sent a malformed prompt ({1}); it was skipped', server, describeItem(raw)));
  }
}

function refusal(message: string, server: string): PromptError {
  return new PromptError(message, 'server', server);
}

/**
 * The caching hints of a whole listing: the shortest `ttlMs` of its pages (each page is its own
 * response), `private` if any page is. Pages without hints (servers before 2026-07-28) count as ttl 0.
 */
function mergeHints(so: ListingHints, page: { ttlMs?: unknown; cacheScope?: unknown }, first: boolean): ListingHints {
  const ttl = typeof page.ttlMs === 'number' && Number.isFinite(page.ttlMs) ? Math.max(page.ttlMs, 0) : undefined;
  const scope = page.cacheScope === 'private' || page.cacheScope === 'public' ? page.cacheScope : undefined;
  return {
    ttlMs: first ? ttl : ttl === undefined || so.ttlMs === undefined ? undefined : Math.min(so.ttlMs, ttl),
    cacheScope: so.cacheScope === 'private' || scope === 'private' ? 'private' : (scope ?? so.cacheScope),
  };
}

function describeItem(raw: unknown): string {
  if (raw && typeof raw === 'object' && typeof (raw as { name?: unknown }).name === 'string')
    return JSON.stringify((raw as { name: string }).name).slice(0, 80);
  // stringifyJson: a malformed item nested 100,000 levels deep must cost a warning, not the listing.
  return raw === undefined ? String(raw) : stringifyJson(raw).slice(0, 80);
}
