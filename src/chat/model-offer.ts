// "Send to Model" on a result that was only shown: chat is opened with the result's invocation line,
// and the participant answers that one request from the stored result instead of asking the server again.
import type { StoredResult } from '../core/run/result-store';

export class ModelOffer {
  private offered?: StoredResult;

  /** The next chat request for this result's invocation answers from it; any other request drops the offer. */
  offer(stored: StoredResult): void {
    this.offered = stored;
  }

  /** Called for every chat request: the offered result when the request is its invocation, once. */
  claim(line: string): StoredResult | undefined {
    const offered = this.offered;
    this.offered = undefined;
    return offered && offered.invocation === line ? offered : undefined;
  }
}
