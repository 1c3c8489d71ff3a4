// The way a command hands a run to `@mcp` in chat (the picker, the tree, Try Again, Repeat Last Prompt,
// Send to Model): the command holds what it hands over as a value — the prepared run, its arguments
// already asked for, or a stored result for the model — and opens chat with the line a person reads for
// it. The participant claims that value first, for the request the line makes, and runs exactly it:
// nothing parses the line back. A request whose text is not that line (edited before it was sent, or
// any other request) drops the hand-off and runs as typed.
import { formatInvocation } from '../core/run/invocation';
import type { Prepared } from '../core/run/prompt-runner';
import type { StoredResult } from '../core/run/result-store';

/** What a command hands to chat: a run to get as prepared, or a result the server already sent, for the model. */
export type HandedToChat = { kind: 'run'; prepared: Prepared } | { kind: 'result'; stored: StoredResult };

/** One slot: the hand-off waiting for the chat request of its line. */
export class ChatHandOff {
  private waiting?: { handed: HandedToChat; line: string };

  /** Holds `handed` for the next chat request; returns the line that request is to be (written by the invocation rule). */
  hold(handed: HandedToChat): string {
    const line =
      handed.kind === 'run'
        ? formatInvocation(handed.prepared.prompt.invocationName, handed.prepared.args)
        : handed.stored.invocation;
    this.waiting = { handed, line };
    return line;
  }

  /** Called first for every chat request (`line`: its text without the leading `/`): the hand-off when the request is its line, once. */
  claim(line: string): HandedToChat | undefined {
    const waiting = this.waiting;
    this.waiting = undefined;
    return waiting?.line === line ? waiting.handed : undefined;
  }
}
