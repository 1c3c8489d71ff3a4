// Which argument values may outlive the run, in the argument history and in the recent prompts alike:
// only what the person typed. A value taken from the editor (a selection, a file, a command's output,
// a chat reference) stays out, so does the value of an argument named like a password, token or key,
// and so does a value too long to be worth offering again.
import { looksSecret } from '../../protocol/questions/elicitation.js';

/** Longer values are not kept: a pasted file is not a value to offer again, and storage stays small. */
export const MAX_KEPT_VALUE_CHARS = 2000;

/** The values of `values` that may be kept; `sourced` names the arguments whose value came from a source. */
export function keptValues(values: Record<string, string>, sourced: Iterable<string> = []): Record<string, string> {
  // One pass, no set, entries or copy of them: it runs on every get (a recent run keeps its values).
  const skip = Array.isArray(sourced) ? (sourced as readonly string[]) : [...sourced];
  const kept: Record<string, string> = {};
  for (const name of Object.keys(values)) {
    const value = values[name];
    if (!value || value.length > MAX_KEPT_VALUE_CHARS || skip.includes(name) || looksSecret(name)) continue;
    // As Object.fromEntries did: `__proto__` is a value's name, not the object's prototype.
    if (name === '__proto__')
      Object.defineProperty(kept, name, { value, enumerable: true, writable: true, configurable: true });
    else kept[name] = value;
  }
  return kept;
}
