// Inspect Skill and Load Skill into Chat, from the tree (a skill row) or the picker (a skill's row and
// its button). Inspecting opens the checked SKILL.md read-only (ui/skill-preview.ts). Loading puts
// `@mcp /server.skill ` in the chat input for the person's request: sent, the chat asks before loading
// (chat/skill-chat.ts), so every load, from anywhere, goes through the one question.
import * as vscode from 'vscode';
import { Workbench } from '../core/command-ids';
import { skillCommand, type CatalogSkill } from '../core/catalog/skills';
import type { SkillPreviews } from '../ui/skill-preview';
import { treeNode } from '../ui/tree-nodes';
import { chatAvailable, showError, type FeedbackParts } from './feedback';

/** What the skill commands use. */
export interface SkillParts extends FeedbackParts {
  previews: SkillPreviews;
}

/** The skill a tree row names; anything else (a key binding's `args`, a plain object) names none. */
function skillOf(arg: unknown): CatalogSkill | undefined {
  const node = treeNode(arg);
  return node?.type === 'skill' ? node.skill : undefined;
}

/** mcpPrompts.inspectSkill on a tree row. */
export function inspectSkillCommand(p: SkillParts, arg: unknown): Promise<void> | undefined {
  const skill = skillOf(arg);
  return skill && inspectSkill(p, skill);
}

/** mcpPrompts.loadSkill on a tree row. */
export function loadSkillCommand(p: SkillParts, arg: unknown): Promise<void> | undefined {
  const skill = skillOf(arg);
  return skill && loadSkill(p, skill);
}

/** A read-only preview; a skill its server refuses shows nothing of itself. */
export async function inspectSkill(p: SkillParts, skill: CatalogSkill): Promise<void> {
  try {
    await p.previews.inspect(skill);
  } catch (err) {
    showError(p, err);
  }
}

/** The chat input gets `@mcp /server.skill ` for the request; sending it asks first. */
export async function loadSkill(p: SkillParts, skill: CatalogSkill): Promise<void> {
  if (!(await chatAvailable())) {
    const inspect = vscode.l10n.t('Inspect Skill');
    const choice = await vscode.window.showInformationMessage(
      vscode.l10n.t('A skill is loaded into a chat for its model, and no chat model is available. You can inspect it.'),
      inspect,
    );
    if (choice === inspect) await inspectSkill(p, skill);
    return;
  }
  await vscode.commands.executeCommand(Workbench.openChat, {
    query: `@mcp /${skillCommand(skill)} `,
    isPartialQuery: true,
  });
}
