// Inspecting and loading a skill of an MCP server. The skill's entry is asked for again when it is used
// (skills/get): that entry is the manifest held from then on, and every file is read against it — listed,
// same size, same digest, for SKILL.md the same frontmatter (the SDK's checks) — and refused when it holds
// text no one would see (core/hidden-text.ts). A refusal is one message naming the server and the
// file; nothing of a refused file is returned. Reading is not loading: what a load sends is decided by
// the surface after the person approved it (SkillSession).
import { createHash, randomBytes } from 'node:crypto';
import * as l10n from '@vscode/l10n';
import { type CatalogSkill, requestedTools, skillFiles, skillOutOfBounds } from '../../catalog/skills.js';
import { PromptError } from '../../errors.js';
import { labelText } from '../../label.js';
import { getSkill, readSkillFile, type Skill, type SkillRefusal } from '../../protocol/connection/skill-requests.js';
import { hiddenText } from '../../hidden-text.js';
import type { SkillFileSummary, SkillSummary } from '../../render/skill-text.js';

/** A skill's entry as its server sent it for this use, with what the texts and the approval need. */
export interface SkillManifest {
  target: CatalogSkill;
  /** The entry held: every read is checked against it. */
  skill: Skill;
  summary: SkillSummary;
  /** Binds an approval: the server, the skill, and every file's URI, size and digest. */
  fingerprint: string;
  /** The files alone (every URI, size and digest), short: what a person compares between an inspection and a load. */
  digest: string;
}

/** A file read and checked. */
export interface SkillFileRead {
  file: SkillFileSummary;
  /** Its text when it is text (SKILL.md always); binary files have none. */
  text?: string;
  /** Exactly the bytes the digest covers. */
  data: Uint8Array;
  mimeType?: string;
  /** SKILL.md only: the markdown after its frontmatter. */
  body?: string;
}

/** The skill's entry as the server has it now (skills/get), within the bounds; a PromptError otherwise. */
export async function skillManifest(target: CatalogSkill, signal?: AbortSignal): Promise<SkillManifest> {
  const { connection, def } = target.server;
  const { skill, listed: fromListing } = await connection.request(getSkill(target.skill), { signal });
  if (fromListing)
    connection.log.warn(
      l10n.t('{0} gave no entry for the skill "{1}" (skills/get); its listed files are used', def.name, skill.uri),
    );
  const problem = skillOutOfBounds(def.name, skill);
  if (problem) throw new PromptError(problem, 'server', def.name);
  const files = skillFiles(skill)
    .map(r => fileSummary(skill.uri, r.uri, r.size))
    .sort((a, b) => (a.path === 'SKILL.md' ? -1 : b.path === 'SKILL.md' ? 1 : a.path < b.path ? -1 : 1));
  const summary: SkillSummary = {
    server: def.name,
    name: skill.frontmatter.name,
    uri: skill.uri,
    description: skill.frontmatter.description,
    files,
    tools: requestedTools(skill),
  };
  const listed = JSON.stringify([
    skill.uri,
    skillFiles(skill)
      .map(r => [r.uri, r.size, r.digest])
      .sort(),
  ]);
  const identity = JSON.stringify([def.id, def.name, def.transport, listed]);
  return {
    target,
    skill,
    summary,
    fingerprint: createHash('sha256').update(identity).digest('hex'),
    digest: createHash('sha256').update(listed).digest('hex').slice(0, 12),
  };
}

/**
 * One file of a held manifest (`ref` relative to the skill's folder; SKILL.md when left out), checked.
 * A file the manifest does not list is refused before anything is sent.
 */
export async function readSkill(m: SkillManifest, ref?: string, signal?: AbortSignal): Promise<SkillFileRead> {
  const { connection, def } = m.target.server;
  const answer = await connection.request(readSkillFile(m.skill, ref), { signal });
  if ('refused' in answer) throw refusal(m, answer.refused);
  const { file } = answer;
  const summary = fileSummary(m.skill.uri, file.uri, file.bytes.byteLength);
  const text = file.text ?? decodeText(file.bytes);
  const hidden = text === undefined ? undefined : hiddenText(text);
  if (hidden)
    throw new PromptError(
      l10n.t(
        '{0}: the skill "{1}" was refused: {2} holds {3} characters no one sees ({4} on line {5}), which a model would read',
        def.name,
        m.summary.name,
        summary.label,
        hidden.count,
        hidden.codePoint,
        hidden.line,
      ),
      'server',
      def.name,
    );
  return { file: summary, text, data: file.bytes, mimeType: file.mimeType, body: file.body };
}

/**
 * The file of a held manifest that `ref` names, however it is spelled: its label, or a reference
 * relative to the skill's folder (`references/../references/FORMS.md`, `%72eferences/FORMS.md`) or the
 * file's whole URI, resolved as a link is and compared segment by decoded segment. The file tool
 * confirms this entry and reads it by the manifest's own spelling, so no other spelling reads a file
 * unconfirmed. undefined: the manifest lists no such file.
 */
export function listedFile(m: SkillManifest, ref: unknown): SkillFileSummary | undefined {
  if (typeof ref !== 'string' || !ref) return undefined;
  const root = m.skill.uri.slice(0, m.skill.uri.length - 'SKILL.md'.length);
  const key = fileKey(ref, root);
  return m.summary.files.find(f => f.label === ref || (key !== undefined && fileKey(f.path, root) === key));
}

/** The refusal of a reference the manifest lists no file for: one message naming the server, the skill and the reference. */
export function unlistedFile(m: SkillManifest, ref: unknown): PromptError {
  return refusal(m, { reason: 'unlisted', uri: typeof ref === 'string' ? ref : String(ref) });
}

/** A file's URI as the place it names: scheme, authority and each path segment decoded, without a fragment. */
function fileKey(ref: string, base: string): string | undefined {
  let url: URL;
  try {
    url = new URL(ref, base);
  } catch {
    return undefined;
  }
  const segments = url.pathname.split('/').map(segment => {
    try {
      return decodeURIComponent(segment);
    } catch {
      return segment;
    }
  });
  return JSON.stringify([url.protocol, url.host, url.search, ...segments]);
}

/** A random id for the marker lines of one load (render/skill-text.ts). */
export function markerId(): string {
  return randomBytes(6).toString('hex');
}

/** The one message of a failed check, naming the server and the file. */
function refusal(m: SkillManifest, r: SkillRefusal): PromptError {
  const { def } = m.target.server;
  const file = fileSummary(m.skill.uri, r.uri, 0).label;
  if (r.reason === 'unlisted')
    return new PromptError(
      l10n.t('{0}: the skill "{1}" has no file {2} among those its server listed', def.name, m.summary.name, file),
      'input',
      def.name,
    );
  const why = {
    size: () => l10n.t('{0} is not the size its server listed', file),
    digest: () => l10n.t('{0} does not match the digest its server listed', file),
    frontmatter: () => l10n.t('the frontmatter of {0} is not what its server listed', file),
  }[r.reason]();
  return new PromptError(
    l10n.t('{0}: the skill "{1}" was refused: {2}', def.name, m.summary.name, why),
    'server',
    def.name,
  );
}

/** A file's path under the skill's folder (its URI's spelling), and the same for people. */
function fileSummary(skillUri: string, uri: string, size: number): SkillFileSummary {
  const root = skillUri.slice(0, skillUri.length - 'SKILL.md'.length);
  const path = uri.startsWith(root) && uri.length > root.length ? uri.slice(root.length) : uri;
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // Not percent-encoded as URIs are: shown as it is.
  }
  return { path, label: labelText(decoded, 300), size };
}

/** UTF-8 text when the bytes are that, losslessly; undefined for binary. */
function decodeText(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
