// What this window did with skills: the loads a person approved "for this session", each bound to the
// skill's whole manifest (server, skill, every file's URI, size and digest: any change asks again), the
// skills loaded into a chat, each under a short handle the file tool names it by, and the digest of each
// skill's files when it was last inspected (the question before a load says whether they changed since).
// Kept in memory only: a workspace cannot seed an approval, and a reload forgets them all.
import type { SkillManifest } from './skill-loader.js';

/** Loaded skills kept for their files; the oldest goes first. */
const MAX_HELD = 50;

/** A loaded skill: its manifest as held at load time, under the handle the file tool names it by. */
export interface HeldSkill {
  handle: string;
  manifest: SkillManifest;
}

/** Inspections remembered; the oldest goes first. */
const MAX_INSPECTED = 200;

/** Which skill of which server, whatever its files: the key of an inspection. */
function skillKey(m: SkillManifest): string {
  const { def } = m.target.server;
  return JSON.stringify([def.scope ?? def.source, def.id, m.skill.uri]);
}

export class SkillSession {
  private readonly approvals = new Set<string>();
  private readonly inspections = new Map<string, string>();
  private readonly held = new Map<string, HeldSkill>();
  private next = 1;

  /** True when the person approved this very manifest for the session. */
  approved(m: SkillManifest): boolean {
    return this.approvals.has(m.fingerprint);
  }

  approve(m: SkillManifest): void {
    this.approvals.add(m.fingerprint);
  }

  /** Notes that the person inspected this skill with these files. */
  inspected(m: SkillManifest): void {
    const key = skillKey(m);
    this.inspections.delete(key);
    this.inspections.set(key, m.digest);
    for (const old of this.inspections.keys()) {
      if (this.inspections.size <= MAX_INSPECTED) break;
      this.inspections.delete(old);
    }
  }

  /** The digest of the skill's files when it was last inspected in this window; undefined: never inspected. */
  inspectedDigest(m: SkillManifest): string | undefined {
    return this.inspections.get(skillKey(m));
  }

  /** Keeps a loaded skill's manifest; its files are read against it later. Returns its handle (`s3`). */
  hold(manifest: SkillManifest): HeldSkill {
    const skill = { handle: `s${this.next++}`, manifest };
    this.held.set(skill.handle, skill);
    for (const old of this.held.keys()) {
      if (this.held.size <= MAX_HELD) break;
      this.held.delete(old);
    }
    return skill;
  }

  /** The loaded skill a handle names, if this window still holds it. */
  skill(handle: unknown): HeldSkill | undefined {
    return typeof handle === 'string' ? this.held.get(handle) : undefined;
  }
}
