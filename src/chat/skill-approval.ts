// The one question before a skill of an MCP server is loaded, from chat, the picker, the tree or an
// agent's tool call: a modal naming the server, the skill, every file with its size and the tools it asks
// for (shown, never granted). "Load for This Session" is remembered in memory for this very manifest
// (core/run/skills/skill-session.ts): any change of a file asks again. The question names the digest of the
// files and says when they changed since the person inspected the skill. The agent's load tool asks here rather
// than in VS Code's tool confirmation, which a person can set to allow a tool for good, whatever it loads.
import * as vscode from 'vscode';
import { skillApproval } from '../core/render/skill-text';
import type { SkillManifest } from '../core/run/skills/skill-loader';
import type { SkillSession } from '../core/run/skills/skill-session';

/** `remembered`: approved earlier in this session for exactly these files; undefined: not approved. */
export type LoadApproval = 'asked' | 'remembered' | undefined;

export async function approveLoad(manifest: SkillManifest, session: SkillSession): Promise<LoadApproval> {
  if (session.approved(manifest)) return 'remembered';
  const { message, detail } = skillApproval(manifest.summary, {
    digest: manifest.digest,
    inspected: session.inspectedDigest(manifest),
  });
  const load = vscode.l10n.t('Load');
  const forSession = vscode.l10n.t('Load for This Session');
  const choice = await vscode.window.showWarningMessage(message, { modal: true, detail }, load, forSession);
  if (choice === forSession) session.approve(manifest);
  return choice === load || choice === forSession ? 'asked' : undefined;
}
