// The requests of the MCP Skills extension (SEP-2640) as our connection sends them. The SDK's
// SkillsClient does the wire work and every check the extension defines (all pages, the entry rules,
// each file's listing, size, digest and frontmatter); wrapped as PromptRequests, each goes through the
// connection's tracking (its timeout, the hold against an idle stop, the server named in errors).
import * as l10n from '@vscode/l10n';
import { type Client, ProtocolError, ProtocolErrorCode, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import {
  SkillsClient,
  SkillVerificationError,
  type Skill,
  type SkillFile,
  type SkillCacheScope,
  type SkillListing,
} from '@modelcontextprotocol/client/ext/skills';
import type { PromptRequest } from './prompt-requests.js';

export type { Skill, SkillFile, SkillListing };

/** One SkillsClient per SDK client: it holds nothing but the client. Invalid entries are reported, not thrown. */
const clients = new WeakMap<Client, SkillsClient>();

function skillsOf(client: Client): SkillsClient {
  let skills = clients.get(client);
  if (!skills) {
    skills = new SkillsClient(client, { skipInvalid: true });
    clients.set(client, skills);
  }
  return skills;
}

/** The server declared the skills extension (false before it finished starting). */
export function offersSkills(client: Client): boolean {
  return skillsOf(client).supported;
}

/** `skills/list`, every page (the SDK walks them, at most its `listMaxPages`). */
export function listSkills(): PromptRequest<SkillListing> {
  return {
    method: 'skills/list',
    params: {},
    send: (client, options) => skillsOf(client).list({}, options),
    what: () => l10n.t('listing skills'),
  };
}

/**
 * `skills/get`: the skill's entry as the server has it now, whatever it listed before. A server that
 * does not know the method, or answers it with no entry, is held to the entry it `listed` (`listed`
 * says so): every file is still checked against an entry of its own.
 */
export function getSkill(
  listed: Skill,
): PromptRequest<{ skill: Skill; ttlMs?: number; cacheScope?: SkillCacheScope; listed?: true }> {
  const { uri } = listed;
  return {
    method: 'skills/get',
    params: { uri },
    send: async (client, options) => {
      try {
        return await skillsOf(client).get(uri, options);
      } catch (err) {
        if (!noEntry(err)) throw err;
        return { skill: listed, listed: true };
      }
    },
    what: () => l10n.t('getting the skill {0}', uri),
  };
}

/** The server has no skills/get (-32601), or its answer holds no valid entry for the skill. */
function noEntry(err: unknown): boolean {
  return (
    (err instanceof ProtocolError && (err.code as ProtocolErrorCode) === ProtocolErrorCode.MethodNotFound) ||
    (err instanceof SdkError && err.code === SdkErrorCode.InvalidResult)
  );
}

/** Why a file failed the extension's checks: not listed, another size or digest, other frontmatter. */
export interface SkillRefusal {
  reason: 'unlisted' | 'size' | 'digest' | 'frontmatter';
  /** The file as the entry (or the request) spells it. */
  uri: string;
}

/**
 * `resources/read` of one file of `skill` (`ref` relative to its folder; SKILL.md when left out),
 * checked against the entry: listed, size, digest, and for SKILL.md its frontmatter. A file the entry
 * does not list is refused before anything is sent. A failed check is an answer (`refused`), so the
 * caller names the server and the file in its own words; only the server's failures throw.
 */
export function readSkillFile(
  skill: Skill,
  ref?: string,
): PromptRequest<{ file: SkillFile } | { refused: SkillRefusal }> {
  return {
    method: 'resources/read',
    params: { uri: skill.uri, ...(ref === undefined ? {} : { ref }) },
    send: async (client, options) => {
      try {
        // Not from the SDK's response cache: the bytes are checked as the server sends them now.
        return { file: await skillsOf(client).read(skill, ref, { ...options, cacheMode: 'bypass' }) };
      } catch (err) {
        if (err instanceof SkillVerificationError) return { refused: { reason: err.reason, uri: err.uri } };
        throw err;
      }
    },
    what: () => l10n.t('reading {0}', ref ?? 'SKILL.md'),
  };
}
