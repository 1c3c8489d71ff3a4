// `get --json` prints the GetPromptResult the server sent. The SDK hands over every field of it but one:
// it takes `resultType` off a 2026-07-28 result once it has read it (both protocol codecs do). A result
// that reaches us on that revision had `"resultType": "complete"` — the SDK refuses any other value and
// answers `input_required` itself by asking again — so that field goes back as the server sent it.
import type { RawGetResult } from '../core/protocol/connection/connection.js';
import type { ServerInfo } from '../core/protocol/connection/connection-state.js';

export function sentResult(result: RawGetResult, era: ServerInfo['era']): Record<string, unknown> {
  return era === 'modern' && !('resultType' in result) ? { ...result, resultType: 'complete' } : result;
}
