// The skills of one server as the catalog keeps them, and how a person names one. A skill is the
// server's (SEP-2640): its identity is (server, SKILL.md URI), never its name alone, so it is always
// named with its server: `server.name`, or `server.skill:name` when a prompt of that server has the
// name (the prompt keeps the plain name). Skills are offered only when they can be checked and held:
// their files listed with digests ("dynamic" skills are not), within SKILL_LIMITS.
import * as l10n from '@vscode/l10n';
import { SKILL_LIMITS, SkillSchema, type Skill } from '@modelcontextprotocol/core/ext/skills';
import { formatBytes } from '../render/content.js';
import type { CatalogSkill, ServerEntry } from './catalog-entry.js';

export type { CatalogSkill, Skill };

/** Skills a saved list keeps per server. */
export const MAX_SAVED_SKILLS = 10000;

/** Written before a skill's name when a prompt of its server has that name. */
export const SKILL_PREFIX = 'skill:';

/** What a person types after `@mcp /`: `server.name`, or `server.skill:name` beside a prompt of that name. */
export function skillCommand(s: Pick<CatalogSkill, 'server' | 'name'>): string {
  const clash = s.server.prompts.some(p => p.shortName === s.name || p.prompt.name === s.name);
  return `${s.server.id}.${clash ? SKILL_PREFIX : ''}${s.name}`;
}

/** The files of an entry, and their bytes together ("dynamic": none listed). */
export function skillFiles(skill: Skill): { uri: string; size: number; digest: string }[] {
  return skill.resources === 'dynamic' ? [] : skill.resources;
}

/** Why a listed skill is not offered, or undefined: files not listed with digests, or past SKILL_LIMITS. */
export function skillOutOfBounds(server: string, skill: Skill): string | undefined {
  const name = skill.frontmatter.name;
  if (skill.resources === 'dynamic')
    return l10n.t(
      '{0}: the skill "{1}" does not list its files with digests ("dynamic"), so they cannot be checked; it is not offered',
      server,
      name,
    );
  const files = skill.resources.length;
  if (files > SKILL_LIMITS.files)
    return l10n.t(
      '{0}: the skill "{1}" lists {2} files, more than {3}; it is not offered',
      server,
      name,
      files,
      SKILL_LIMITS.files,
    );
  const bytes = skill.resources.reduce((sum, r) => sum + r.size, 0);
  if (bytes > SKILL_LIMITS.bytes)
    return l10n.t(
      '{0}: the skill "{1}" lists {2} of files, more than {3}; it is not offered',
      server,
      name,
      formatBytes(bytes),
      formatBytes(SKILL_LIMITS.bytes),
    );
  return undefined;
}

/**
 * One server's listed skills as the catalog keeps them, in its order: those out of bounds left out (a
 * warning says why), repeats of a name told apart by URI order (`pdf`, `pdf~2`; `~` is in no skill's
 * or prompt's name).
 */
export function toCatalogSkills(entry: ServerEntry, skills: readonly Skill[], warnings: string[]): CatalogSkill[] {
  const kept: Skill[] = [];
  for (const skill of skills) {
    const problem = skillOutOfBounds(entry.def.name, skill);
    if (problem) warnings.push(problem);
    else kept.push(skill);
  }
  const seen = new Map<string, number>();
  const names = new Map<Skill, string>();
  for (const skill of [...kept].sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0))) {
    const count = (seen.get(skill.frontmatter.name) ?? 0) + 1;
    seen.set(skill.frontmatter.name, count);
    names.set(skill, count === 1 ? skill.frontmatter.name : `${skill.frontmatter.name}~${count}`);
  }
  return kept.map(skill => ({ server: entry, skill, name: names.get(skill)! }));
}

/** The tools a skill's frontmatter asks for (`allowed-tools`), as it wrote them; shown, never granted. */
export function requestedTools(skill: Skill): string | undefined {
  const asked: unknown = skill.frontmatter['allowed-tools'];
  if (typeof asked === 'string') return asked.trim() || undefined;
  if (Array.isArray(asked)) return asked.filter(t => typeof t === 'string').join(', ') || undefined;
  return undefined;
}

/** Entries as a saved list keeps them: what the catalog shows and checks, not the server's `_meta`. */
export function storedSkills(skills: readonly Skill[]): unknown[] {
  return skills.map(({ uri, frontmatter, resources }) => ({ uri, frontmatter, resources }));
}

/** A saved list's entries back, each checked as the SDK checks an entry's shape; throws on anything malformed. */
export function readStoredSkills(stored: unknown): Skill[] | undefined {
  if (stored === undefined) return undefined;
  if (!Array.isArray(stored) || stored.length > MAX_SAVED_SKILLS) throw new Error('skills');
  return stored.map(item => {
    const parsed = SkillSchema.safeParse(item);
    if (!parsed.success) throw new Error('skills');
    return parsed.data;
  });
}
