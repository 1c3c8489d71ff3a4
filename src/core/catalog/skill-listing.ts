// Reading one server's skills (skills/list, every page) within bounds a hostile server cannot pass: the
// bytes of the whole listing (what a saved list may take, as for prompts) and the number of skills kept.
// The SDK walks the pages and checks each entry; an entry it refuses is a warning naming the server, and
// a server without the extension lists nothing, with no error.
import * as l10n from '@vscode/l10n';
import type { Client } from '@modelcontextprotocol/client';
import { PromptError, toPromptError } from '../errors.js';
import type { ServerConnection } from '../protocol/connection/connection.js';
import { listSkills, offersSkills, type Skill, type SkillListing } from '../protocol/connection/skill-requests.js';
import { MAX_SAVED_SKILLS } from './skills.js';

/** Bytes of one listing of skills, all its pages together. */
export const MAX_SKILL_LISTING_BYTES = 16 * 1024 * 1024;

export interface SkillListingResult {
  /** Undefined when the listing failed; none for a server without the extension (it is not asked). */
  skills?: Skill[];
  warnings: string[];
  hints: { ttlMs?: number; cacheScope?: 'public' | 'private' };
  error?: PromptError;
}

export interface SkillListingOptions {
  background?: boolean;
  maxBytes?: number;
  maxSkills?: number;
}

/** The server's skills on `client` (already connected); never throws (a failure is `error`). */
export async function readSkills(
  connection: ServerConnection,
  client: Client,
  options: SkillListingOptions = {},
): Promise<SkillListingResult> {
  const result: SkillListingResult = { warnings: [], hints: {} };
  if (!offersSkills(client)) return { ...result, skills: [] };
  const server = connection.def.name;
  const maxBytes = options.maxBytes ?? MAX_SKILL_LISTING_BYTES;
  // The SDK walks every page in one call: past the bound the walk is aborted, and nothing of it kept.
  const abort = new AbortController();
  const unwatch = connection.watchBytes(maxBytes, () => abort.abort());
  let listing: SkillListing;
  try {
    listing = await connection.request(listSkills(), { client, background: options.background, signal: abort.signal });
  } catch (err) {
    result.error = abort.signal.aborted
      ? new PromptError(
          l10n.t('{0} sent more than {1} MB of skills; they were not read', server, maxBytes / 1048576),
          'server',
          server,
        )
      : toPromptError(err, server, l10n.t('listing skills'));
    return result;
  } finally {
    unwatch();
  }
  for (const bad of listing.invalid)
    result.warnings.push(
      l10n.t(
        '{0} listed an invalid skill ({1}); it was skipped',
        server,
        `${bad.uri ?? `#${bad.index}`}: ${bad.reason}`.slice(0, 200),
      ),
    );
  const max = options.maxSkills ?? MAX_SAVED_SKILLS;
  if (listing.skills.length > max)
    result.warnings.push(l10n.t('{0} listed more than {1} skills; the rest are not offered', server, max));
  result.skills = listing.skills.slice(0, max);
  result.hints = { ttlMs: listing.ttlMs, cacheScope: listing.cacheScope };
  return result;
}
