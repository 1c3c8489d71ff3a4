// What an argument step suggests while the user types: their recent values that contain the text, then
// the server's completions. Until the server answers for this exact text, its last answer is narrowed
// to what still fits it, so the list follows every keystroke without waiting for the network.
import * as l10n from '@vscode/l10n';
import { labelText } from '../label.js';

export interface Completions {
  prefix: string;
  values: readonly string[];
}

export interface BoxRow {
  label: string;
  description?: string;
}

/** Row 0 of a step: what is typed, else a hint (required) or Skip (optional). */
export function boxRow(typed: string, argumentName: string, required: boolean | undefined): BoxRow {
  const argument = labelText(argumentName);
  if (typed) return { label: typed, description: l10n.t('use what you typed') };
  if (required) return { label: l10n.t('$(edit) Type a value for {0}', argument) };
  return { label: l10n.t('$(debug-step-over) Skip'), description: l10n.t('leave {0} empty', argument) };
}

/** Value → row description, in display order; never the typed text itself (row 0 is that). */
export function suggestions(
  typed: string,
  history: readonly string[],
  completions: Completions,
  server: string,
): Map<string, string> {
  const lower = typed.toLowerCase();
  const current = new Map<string, string>();
  const recent = l10n.t('recent');
  for (const h of history) if (h !== typed && h.toLowerCase().includes(lower)) current.set(h, recent);
  const answered =
    completions.prefix === typed
      ? completions.values
      : completions.values.filter(c => c.toLowerCase().startsWith(lower));
  const fromServer = l10n.t('suggestion from {0}', labelText(server));
  for (const c of answered) if (c !== typed && !current.has(c)) current.set(c, fromServer);
  return current;
}
