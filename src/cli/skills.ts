// `mcp-prompts skills` and `mcp-prompts skill SERVER.NAME [FILE]` (docs/cli.md): the skills of the
// file's servers, and one file of one skill, read and checked as the extension reads it to inspect it
// (listed, size, digest, frontmatter, no hidden text). A refused file prints nothing of itself: one line
// naming the server and the file, exit 1; an unknown skill or file: one line, exit 2.
import type { Catalog } from '../core/catalog/catalog.js';
import { SKILL_PREFIX, type CatalogSkill } from '../core/catalog/skills.js';
import { PromptError } from '../core/errors.js';
import { stringifyJson } from '../core/json.js';
import { terminalJson, terminalLine, terminalText } from '../core/render/terminal.js';
import { readSkill, skillManifest } from '../core/run/skills/skill-loader.js';

/** What the skill commands read of the command line. */
interface SkillCommandLine {
  positional: string[];
  json: boolean;
}

/** Each server's warnings and listing failure on stderr, one line each; 1 when a server failed. */
export function reportListings(catalog: Catalog): number {
  let code = 0;
  for (const s of catalog.servers) {
    for (const w of s.warnings) process.stderr.write(`mcp-prompts: ${terminalLine(w)}\n`);
    if (s.listError) {
      process.stderr.write(`mcp-prompts: ${terminalLine(s.listError.message)}\n`);
      code = 1;
    }
  }
  return code;
}

/** Every skill of every server that answered: `[{server, name, description, uri}]`, or one line each. */
export async function skills(catalog: Catalog, o: SkillCommandLine): Promise<number> {
  await catalog.ready();
  const answered = catalog.servers.filter(s => !s.listError);
  if (answered.length || !catalog.servers.length) {
    const rows = answered.flatMap(s =>
      s.skills.map(k => ({
        server: s.def.name,
        name: k.name,
        description: k.skill.frontmatter.description,
        uri: k.skill.uri,
      })),
    );
    if (o.json) process.stdout.write(terminalJson(stringifyJson(rows, 2)) + '\n');
    else
      for (const k of answered.flatMap(s => s.skills))
        process.stdout.write(terminalLine(`${k.server.id}.${k.name}  — ${k.skill.frontmatter.description}`) + '\n');
  }
  return reportListings(catalog);
}

/** One file of one skill, checked: its text (or, with --json, `{server, skill, uri, file, size, text | blob}`). */
export async function skill(catalog: Catalog, o: SkillCommandLine, signal: AbortSignal): Promise<number> {
  const [, name, file] = o.positional;
  if (!name) throw new PromptError('skill needs SERVER.NAME', 'input');
  const target = await findSkill(catalog, name);
  const manifest = await skillManifest(target, signal);
  const read = await readSkill(manifest, file, signal);
  if (o.json) {
    const content = read.text !== undefined ? { text: read.text } : { blob: Buffer.from(read.data).toString('base64') };
    const out = {
      server: target.server.def.name,
      skill: manifest.summary.name,
      uri: manifest.skill.uri,
      file: read.file.path,
      size: read.file.size,
      ...(read.mimeType ? { mimeType: read.mimeType } : {}),
      ...content,
    };
    process.stdout.write(terminalJson(stringifyJson(out, 2)) + '\n');
  } else if (read.text !== undefined) process.stdout.write(terminalText(read.text));
  else
    process.stderr.write(
      `mcp-prompts: ${terminalLine(`${target.server.def.name}: ${read.file.label} is binary (${read.file.size} bytes); --json prints it as base64`)}\n`,
    );
  return 0;
}

/** `server.name` (or `server.skill:name`): the skill, after its server listed; exit 2 when there is none. */
async function findSkill(catalog: Catalog, name: string): Promise<CatalogSkill> {
  const entry = catalog.serverOf(name);
  if (!entry) throw new PromptError(`no server for "${name}" (expected SERVER.NAME)`, 'input');
  await catalog.ready(entry.id);
  if (entry.listError) throw entry.listError;
  const typed = name.slice(entry.id.length + 1);
  const part = typed.startsWith(SKILL_PREFIX) ? typed.slice(SKILL_PREFIX.length) : typed;
  const found = entry.skills.find(s => s.name === part);
  if (!found) throw new PromptError(`${entry.def.name} has no skill "${part}"`, 'input', entry.def.name);
  return found;
}
