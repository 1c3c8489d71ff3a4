// The language model tools of skills (package.json contributes both):
// - mcpPrompts_loadSkill: an agent loads a skill of one of the user's MCP servers. The load is asked in the
//   same modal as everywhere (chat/skill-approval.ts), bound to the skill's files; the result is the
//   skill's body as the server's text, with the handle its files are read by.
// - mcpPrompts_skillFile: a file of a skill loaded in this window, read only from the manifest held at load
//   time and only from the server that served it, checked against the digest listed then; VS Code asks
//   the person before each read (prepareInvocation). The file the model names is first resolved to the
//   manifest's entry, whatever its spelling (`references/../x.md`, `%72eferences/x.md`, the whole URI):
//   that entry is confirmed and read, and a name no entry answers to is refused before anything is asked
//   or sent. A refusal is an error naming the server and the file, with nothing of the file in it.
import * as vscode from 'vscode';
import type { Catalog } from '../core/catalog/catalog';
import { SKILL_PREFIX, type CatalogSkill } from '../core/catalog/skills';
import { formatBytes } from '../core/render/content';
import { escapeLabel } from '../core/render/markdown';
import { LOAD_SKILL_TOOL, SKILL_FILE_TOOL, skillContext, skillFileContext } from '../core/render/skill-text';
import { listedFile, markerId, readSkill, skillManifest, unlistedFile } from '../core/run/skills/skill-loader';
import type { SkillSession } from '../core/run/skills/skill-session';
import { labelText } from '../core/label';
import { approveLoad } from './skill-approval';

interface LoadInput {
  server?: unknown;
  skill?: unknown;
}

interface FileInput {
  skill?: unknown;
  file?: unknown;
}

export function registerSkillTools(catalog: Catalog, session: SkillSession): vscode.Disposable {
  return vscode.Disposable.from(loadSkillTool(catalog, session), skillFileTool(session));
}

/** The agent's tool that loads a skill into the chat, after the person approves its files. */
function loadSkillTool(catalog: Catalog, session: SkillSession): vscode.Disposable {
  return vscode.lm.registerTool<LoadInput>(LOAD_SKILL_TOOL.name, {
    prepareInvocation: ({ input }) => ({
      invocationMessage: vscode.l10n.t(
        'Loading the skill {0} of the MCP server {1} (you are asked first)',
        labelText(String(input.skill), 80),
        labelText(String(input.server), 80),
      ),
    }),
    invoke: async ({ input }, token) => {
      const target = findSkill(catalog, input);
      const signal = abortOn(token);
      const manifest = await skillManifest(target, signal);
      if (!(await approveLoad(manifest, session)))
        throw new Error(vscode.l10n.t('The user did not load the skill {0}.', manifest.summary.name));
      const skillMd = await readSkill(manifest, undefined, signal);
      const held = session.hold(manifest);
      const context = skillContext(manifest.summary, skillMd.body ?? '', held.handle, markerId());
      return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(context)]);
    },
  });
}

/** The agent's tool that reads one listed file of a loaded skill, checked against its digest, after the person confirms. */
function skillFileTool(session: SkillSession): vscode.Disposable {
  return vscode.lm.registerTool<FileInput>(SKILL_FILE_TOOL.name, {
    prepareInvocation: ({ input }) => {
      const held = session.skill(input.skill);
      if (!held) return { invocationMessage: vscode.l10n.t('Reading a file of an MCP skill') };
      const file = listedFile(held.manifest, input.file);
      if (!file) throw unlistedFile(held.manifest, input.file);
      const s = held.manifest.summary;
      const message = new vscode.MarkdownString(
        vscode.l10n.t(
          'Read **{0}** ({1}) of the skill **{2}** from the MCP server **{3}**? It is checked against the digest the server listed when the skill was loaded, and goes to the model as text from that server.',
          escapeLabel(file.label),
          formatBytes(file.size),
          escapeLabel(s.name),
          escapeLabel(s.server),
        ),
      );
      message.isTrusted = false;
      return {
        invocationMessage: vscode.l10n.t('Reading {0} of the skill {1} ({2})', file.label, s.name, labelText(s.server)),
        confirmationMessages: { title: vscode.l10n.t('Read a File of an MCP Skill'), message },
      };
    },
    invoke: async ({ input }, token) => {
      const held = session.skill(input.skill);
      if (!held)
        throw new Error(
          vscode.l10n.t(
            'No skill "{0}" is loaded in this window (expected a handle such as s1 from the loaded skill).',
            labelText(String(input.skill), 40),
          ),
        );
      // The entry that was confirmed, by the manifest's own spelling.
      const file = listedFile(held.manifest, input.file);
      if (!file) throw unlistedFile(held.manifest, input.file);
      const read = await readSkill(held.manifest, file.path, abortOn(token));
      const s = held.manifest.summary;
      const text =
        read.text !== undefined
          ? skillFileContext(s, read.file, read.text, markerId())
          : vscode.l10n.t(
              'The file {0} of the skill "{1}" ({2}) is binary ({3}); it is not shown.',
              read.file.path,
              s.name,
              labelText(s.server),
              read.mimeType ?? formatBytes(read.file.size),
            );
      return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
    },
  });
}

/**
 * The skill `{server, skill}` names: the server by its id or name, the skill by its name (with or without
 * `skill:`). An unknown one is an error that lists what there is.
 */
function findSkill(catalog: Catalog, input: LoadInput): CatalogSkill {
  const server = catalog.servers.find(s => s.id === input.server || s.def.name === input.server);
  const typed = typeof input.skill === 'string' ? input.skill : '';
  const name = typed.startsWith(SKILL_PREFIX) ? typed.slice(SKILL_PREFIX.length) : typed;
  const found = server?.skills.find(s => s.name === name);
  if (found) return found;
  const offered = catalog.skills.map(s => `${labelText(s.server.def.name, 60)}: ${s.name}`).slice(0, 200);
  throw new Error(
    vscode.l10n.t(
      'No skill "{0}" on a server "{1}". Skills offered: {2}',
      labelText(String(input.skill), 80),
      labelText(String(input.server), 80),
      offered.join('; ') || vscode.l10n.t('none'),
    ),
  );
}

function abortOn(token: vscode.CancellationToken): AbortSignal {
  const controller = new AbortController();
  token.onCancellationRequested(() => controller.abort());
  return controller.signal;
}
