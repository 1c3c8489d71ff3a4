// A server may close a kept-alive connection just as the next request goes out on it (Node's HTTP
// server drops an idle one after 5 s; on a busy machine our request can meet that close): fetch then
// fails with "other side closed" before any answer. The requests MCP Prompts sends are reads, so such a
// request is sent once more, on a fresh connection; anything else fails as it did.

/** The read requests we send, which the server may receive twice without harm. */
const READS = new Set([
  'server/discover',
  'initialize',
  'prompts/list',
  'prompts/get',
  'completion/complete',
  'resources/list',
  'resources/read',
  'resources/directory/read',
  'skills/list',
  'skills/get',
]);

/** `base`, with one more try of a read POST whose connection the server closed before answering. */
export function retryClosedConnection(base: typeof fetch): typeof fetch {
  // No async frame of its own: this runs for every request over HTTP.
  return (input, init) =>
    base(input, init).catch((err: unknown) => {
      if (!closedBeforeAnswer(err) || !isRead(init) || init?.signal?.aborted) throw err;
      return base(input, init);
    });
}

/** undici's "other side closed": the socket ended before a response came. */
function closedBeforeAnswer(err: unknown): boolean {
  const cause = (err as { cause?: { code?: unknown } } | undefined)?.cause;
  return err instanceof TypeError && cause?.code === 'UND_ERR_SOCKET';
}

function isRead(init: RequestInit | undefined): boolean {
  if (init?.method !== 'POST' || typeof init.body !== 'string') return false;
  try {
    const message = JSON.parse(init.body) as { id?: unknown; method?: unknown };
    return message.id !== undefined && typeof message.method === 'string' && READS.has(message.method);
  } catch {
    return false;
  }
}
