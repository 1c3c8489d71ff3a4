// The status bar's one item: how many servers run and fail, as plain data (src/ui/status.ts shows it).
import * as l10n from '@vscode/l10n';
import { isFailing, isRunning, promptCount, serverState, type ServerSnapshot } from './server-state.js';

export interface StatusSummary {
  text: string;
  tooltip: string;
  warning: boolean;
}

/** The status bar: servers running and failing; hidden (undefined) when nothing is configured. */
export function statusSummary(
  servers: readonly ServerSnapshot[],
  heldCount: number,
  prompts: number,
): StatusSummary | undefined {
  if (!servers.length && !heldCount) return undefined;
  const states = servers.map(serverState);
  const running = states.filter(isRunning).length;
  const failing = states.filter(isFailing).length;
  return {
    text: failing ? `$(plug) ${running} $(error) ${failing}` : `$(plug) ${running}`,
    tooltip: l10n.t('MCP Prompts: {0} running, {1} failing, {2}', running, failing, promptCount(prompts)),
    warning: failing > 0,
  };
}
