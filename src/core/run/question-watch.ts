// Who shows, besides the question's own input, that a server asks something and how it was answered:
// a chat response while its request runs ("waiting for your answer", then a transcript line). Here,
// vscode-free, so that chat (which watches) and ui (which asks) need not know each other.
import type { Question, QuestionAnswer } from '../protocol/questions/elicitation.js';

export interface QuestionWatcher {
  asking(question: Question): void;
  answered(question: Question, answer: QuestionAnswer): void;
}

const watchers: QuestionWatcher[] = [];

/** Tells `watcher` of every question asked until the returned function is called (the latest watcher wins). */
export function watchQuestions(watcher: QuestionWatcher): () => void {
  watchers.push(watcher);
  return () => {
    const at = watchers.indexOf(watcher);
    if (at >= 0) watchers.splice(at, 1);
  };
}

/** The watcher a question asked now is shown to, if any. */
export function questionWatcher(): QuestionWatcher | undefined {
  return watchers[watchers.length - 1];
}
