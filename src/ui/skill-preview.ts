// Inspect Skill: a read-only preview of a skill's SKILL.md and its files with their sizes and digest,
// headed by the server that serves it. It is the checked SKILL.md (core/run/skills/skill-loader.ts) shown as
// plain text, never as markdown: a markdown preview would hide `<!-- … -->` and fetch remote images. It
// is served from memory under our own scheme, never written where VS Code or another tool looks for
// skills of its own. Reading to inspect is not loading: nothing goes to a model, and no approval is
// given or asked; the session notes the files' digest, and a later load says if they changed since.
import * as vscode from 'vscode';
import type { CatalogSkill } from '../core/catalog/skills';
import { skillPreview } from '../core/render/skill-text';
import { readSkill, skillManifest } from '../core/run/skills/skill-loader';
import type { SkillSession } from '../core/run/skills/skill-session';

export const SKILL_PREVIEW_SCHEME = 'mcp-prompts-skill';
/** Previews kept for open editors; the oldest goes first. */
const MAX_PREVIEWS = 20;

export class SkillPreviews implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private next = 1;

  constructor(private readonly session: SkillSession) {}

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.path) ?? vscode.l10n.t('This preview is no longer available. Inspect the skill again.');
  }

  /** Reads and checks the skill's SKILL.md, then opens its preview; a refused skill shows nothing of itself. */
  async inspect(target: CatalogSkill): Promise<vscode.TextEditor> {
    const text = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('Reading the skill {0} from {1}…', target.name, target.server.def.name),
        cancellable: true,
      },
      async (_progress, token) => {
        const controller = new AbortController();
        const sub = token.onCancellationRequested(() => controller.abort());
        try {
          const manifest = await skillManifest(target, controller.signal);
          const skillMd = await readSkill(manifest, undefined, controller.signal);
          this.session.inspected(manifest);
          return skillPreview(manifest.summary, skillMd.text ?? '', manifest.digest);
        } finally {
          sub.dispose();
        }
      },
    );
    // The tab says whose skill it is: `pdf-forms (skills-demo).txt`, never a plain SKILL.md.
    const server = target.server.id.replace(/[^\w.-]+/g, '_');
    const path = `/${this.next++}/${target.skill.frontmatter.name} (${server}).txt`;
    this.texts.set(path, text);
    for (const old of this.texts.keys()) {
      if (this.texts.size <= MAX_PREVIEWS) break;
      this.texts.delete(old);
    }
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: SKILL_PREVIEW_SCHEME, path }));
    // Plain text whatever the user's file associations say: no markdown preview is offered for it.
    await vscode.languages.setTextDocumentLanguage(doc, 'plaintext');
    return vscode.window.showTextDocument(doc, { preview: true });
  }
}

export function registerSkillPreviews(previews: SkillPreviews): vscode.Disposable {
  return vscode.workspace.registerTextDocumentContentProvider(SKILL_PREVIEW_SCHEME, previews);
}
