// Questions from servers in the quick input: one step per field (a text box for text and numbers,
// a list for yes/no and choices), then a review step to send, change or decline. Escape anywhere
// cancels. URL questions show the full address and its host and open it only when the user agrees.
// A chat request running meanwhile is told (core/question-watch): it shows "waiting for your answer"
// and a transcript line saying what was asked and answered. The rules (validation, safe URLs, hidden
// values) are core's.
import * as vscode from 'vscode';
import { questionWatcher } from '../core/run/question-watch';
import { oneAtATime } from '../core/protocol/questions/questions';
import {
  checkValue,
  fieldHint,
  type Asker,
  type Field,
  type FieldValue,
  type FormQuestion,
  type Question,
  type QuestionAnswer,
  type UrlQuestion,
} from '../core/protocol/questions/elicitation';

interface Row extends vscode.QuickPickItem {
  value?: string;
  step?: number;
  act?: 'send' | 'decline' | 'skip';
}
type Step = { value: FieldValue | undefined } | 'back' | 'decline' | 'cancel';

let open: Promise<unknown> | undefined;

/** While a question is on screen, the quick input it hid (an argument step asking for completions) waits for it instead of cancelling. */
export function questionShowing(): Promise<unknown> | undefined {
  return open;
}

/** The asker every connection of the extension uses: one question on screen at a time. */
// Pure: a bundle that takes only questionShowing() from here (the bench's argument rows) drops it.
export const askQuestion: Asker = /* @__PURE__ */ oneAtATime(async question => {
  let closed!: () => void;
  // Set before the question's input shows, so the input it hides already sees it.
  open = new Promise<void>(resolve => {
    closed = resolve;
  });
  try {
    return await show(question);
  } finally {
    open = undefined;
    closed();
  }
});

async function show(question: Question): Promise<QuestionAnswer> {
  const watcher = questionWatcher();
  watcher?.asking(question);
  const answer = question.mode === 'url' ? await askUrl(question) : await askForm(question);
  watcher?.answered(question, answer);
  return answer;
}

/** Which server asks, what, and during which of our requests (the run it belongs to). */
function title(question: Question): string {
  return vscode.l10n.t('{0} asks: {1} ({2})', question.server, question.message, question.during);
}

async function askForm(question: FormQuestion): Promise<QuestionAnswer> {
  const values: Record<string, FieldValue | undefined> = Object.fromEntries(
    question.fields.map(f => [f.name, f.default]),
  );
  const total = question.fields.length + 1;
  let i = 0;
  for (;;) {
    if (question.signal.aborted) return { action: 'cancel' };
    if (i < question.fields.length) {
      const field = question.fields[i];
      const step = await askField({ question, field, current: values[field.name], index: i, total });
      if (step === 'cancel' || step === 'decline') return { action: step };
      if (step === 'back') {
        i = Math.max(0, i - 1);
        continue;
      }
      values[question.fields[i].name] = step.value;
      i++;
      continue;
    }
    const review = await askReview(question, values, total);
    if (review === 'send')
      return {
        action: 'accept',
        values: Object.fromEntries(Object.entries(values).filter((e): e is [string, FieldValue] => e[1] !== undefined)),
      };
    if (review === 'cancel' || review === 'decline') return { action: review };
    i = review;
  }
}

function declineButton(server: string): vscode.QuickInputButton {
  return { iconPath: new vscode.ThemeIcon('circle-slash'), tooltip: vscode.l10n.t('Decline (tell {0} no)', server) };
}

function fieldPrompt(field: Field): string {
  const parts = [
    field.required ? vscode.l10n.t('{0} (required)', field.label) : vscode.l10n.t('{0} (optional)', field.label),
  ];
  const hint = fieldHint(field);
  if (hint) parts.push(hint);
  if (field.description) parts.push(field.description);
  return parts.join(' — ');
}

function shown(field: Field, value: FieldValue | undefined): string {
  if (value === undefined) return '';
  if (field.secret) return '••••';
  if (typeof value === 'boolean') return value ? vscode.l10n.t('Yes') : vscode.l10n.t('No');
  if (Array.isArray(value)) return value.map(v => field.choices?.find(c => c.value === v)?.label ?? v).join(', ');
  return field.choices?.find(c => c.value === value)?.label ?? String(value);
}

/** Where one field sits among the steps of its question. */
interface FieldStep {
  question: FormQuestion;
  field: Field;
  current: FieldValue | undefined;
  index: number;
  total: number;
}

/** One field: a text box that checks as the user types, or a list of choices. */
function askField(step: FieldStep): Promise<Step> {
  const { field } = step;
  return field.kind === 'string' || field.kind === 'number' || field.kind === 'integer'
    ? askText(step)
    : askChoice(step);
}

/** The buttons and settings every field step shares: Back after the first, Decline always. */
function stepFrame({ question, index, total }: FieldStep) {
  const decline = declineButton(question.server);
  const buttons = [...(index > 0 ? [vscode.QuickInputButtons.Back] : []), decline];
  return {
    decline,
    frame: { title: title(question), step: index + 1, totalSteps: total, ignoreFocusOut: true, buttons },
  };
}

function askText(step: FieldStep): Promise<Step> {
  const { question, field, current } = step;
  const { decline, frame } = stepFrame(step);
  const box = vscode.window.createInputBox();
  Object.assign(box, frame, { prompt: fieldPrompt(field), password: field.secret });
  box.placeholder = field.label;
  box.value = current === undefined ? '' : String(current);
  const check = () => {
    const r = checkValue(field, box.value);
    box.validationMessage = 'problem' in r && box.value !== '' ? r.problem : undefined;
    return r;
  };
  return run(box, question, decline, finish => {
    box.onDidChangeValue(check);
    box.onDidAccept(() => {
      const r = check();
      if ('problem' in r) {
        box.validationMessage = r.problem;
        return;
      }
      finish({ value: r.ok });
    });
  });
}

/** The rows of a choice field: Yes/No, or the server's choices, and Skip for an optional single choice. */
function choiceRows(field: Field): Row[] {
  const choices: Row[] =
    field.kind === 'boolean'
      ? [
          { label: vscode.l10n.t('Yes'), value: 'true' },
          { label: vscode.l10n.t('No'), value: 'false' },
        ]
      : (field.choices ?? []).map(c => ({
          label: c.label,
          description: c.label === c.value ? undefined : c.value,
          value: c.value,
        }));
  if (field.required || field.kind === 'multi') return choices;
  return [
    ...choices,
    {
      label: vscode.l10n.t('$(debug-step-over) Skip'),
      description: vscode.l10n.t('leave {0} empty', field.label),
      act: 'skip',
    },
  ];
}

function askChoice(step: FieldStep): Promise<Step> {
  const { question, field, current } = step;
  const { decline, frame } = stepFrame(step);
  const qp = vscode.window.createQuickPick<Row>();
  Object.assign(qp, frame, { placeholder: fieldPrompt(field), matchOnDescription: true });
  qp.canSelectMany = field.kind === 'multi';
  qp.items = choiceRows(field);
  const picked = (r: Row) =>
    current !== undefined && (Array.isArray(current) ? current.includes(r.value ?? '') : String(current) === r.value);
  if (qp.canSelectMany) qp.selectedItems = qp.items.filter(picked);
  else qp.activeItems = qp.items.filter(picked).slice(0, 1);
  return run(qp, question, decline, finish => {
    qp.onDidAccept(() => {
      const rows = qp.canSelectMany
        ? [...qp.selectedItems]
        : [qp.selectedItems[0] ?? qp.activeItems[0]].filter(Boolean);
      if (!qp.canSelectMany && rows[0]?.act === 'skip') {
        finish({ value: undefined });
        return;
      }
      const input =
        field.kind === 'boolean'
          ? rows[0]?.value === 'true'
          : qp.canSelectMany
            ? rows.map(row => row.value ?? '')
            : (rows[0]?.value ?? '');
      const checked = !qp.canSelectMany && !rows.length ? checkValue(field, '') : checkValue(field, input);
      if ('problem' in checked) {
        qp.placeholder = checked.problem;
        return;
      }
      finish({ value: checked.ok });
    });
  });
}

/** The last step: send, change one answer, or decline. */
function askReview(
  question: FormQuestion,
  values: Record<string, FieldValue | undefined>,
  total: number,
): Promise<'send' | 'decline' | 'cancel' | number> {
  const qp = vscode.window.createQuickPick<Row>();
  const decline = declineButton(question.server);
  Object.assign(qp, {
    title: title(question),
    placeholder: vscode.l10n.t('Send these answers to {0}?', question.server),
    step: total,
    totalSteps: total,
    ignoreFocusOut: true,
    buttons: [vscode.QuickInputButtons.Back, decline],
  });
  qp.items = [
    { label: vscode.l10n.t('$(check) Send to {0}', question.server), act: 'send' },
    ...question.fields.map((f, i) => ({
      label: `$(edit) ${f.label}`,
      description: shown(f, values[f.name]) || vscode.l10n.t('(empty)'),
      step: i,
    })),
    {
      label: vscode.l10n.t('$(circle-slash) Decline'),
      description: vscode.l10n.t('tell {0} no', question.server),
      act: 'decline',
    },
  ];
  return run(qp, question, decline, finish => {
    qp.onDidAccept(() => {
      const row = qp.selectedItems[0] ?? qp.activeItems[0];
      if (row?.act === 'send') finish({ value: 'send' });
      else if (row?.act === 'decline') finish('decline');
      else if (row?.step !== undefined) finish({ value: row.step });
    });
  }).then(step =>
    typeof step === 'object' ? (step.value as 'send' | number) : step === 'back' ? question.fields.length - 1 : step,
  );
}

/** A step of a URL question: its title, a Decline button, open while the user is in the browser. */
function urlStep(question: UrlQuestion, placeholder: string, items: Row[]) {
  const qp = vscode.window.createQuickPick<Row>();
  const decline = declineButton(question.server);
  // The address is in a row's detail: typing filters on labels only.
  Object.assign(qp, {
    title: title(question),
    placeholder,
    ignoreFocusOut: true,
    buttons: [decline],
    matchOnDetail: false,
  });
  qp.items = items;
  return { qp, decline };
}

/** URL mode: the full address and its host; opened only after "Open". */
async function askUrl(question: UrlQuestion): Promise<QuestionAnswer> {
  const { qp, decline } = urlStep(
    question,
    vscode.l10n.t('{0} asks you to open a page on {1}', question.server, question.host),
    [
      {
        label: vscode.l10n.t('$(link-external) Open {0}', question.host),
        detail: question.shownUrl,
        description: question.warning,
        act: 'send',
      },
      {
        label: vscode.l10n.t('$(circle-slash) Decline'),
        description: vscode.l10n.t('tell {0} no', question.server),
        act: 'decline',
      },
    ],
  );
  const step = await run(qp, question, decline, finish => {
    qp.onDidAccept(() => {
      const row = qp.selectedItems[0] ?? qp.activeItems[0];
      if (row?.act === 'send') finish({ value: 'open' });
      else if (row?.act === 'decline') finish('decline');
    });
  });
  if (step === 'decline') return { action: 'decline' };
  if (typeof step !== 'object') return { action: 'cancel' };
  await vscode.env.openExternal(vscode.Uri.parse(question.url, true));
  return question.finished ? waitUntilFinished(question, question.finished) : { action: 'accept' };
}

/**
 * -32042: the request is retried once the user is done on the page. The server may say so itself
 * (the step closes on its own); otherwise the user chooses Retry. Escape cancels the run.
 */
async function waitUntilFinished(question: UrlQuestion, finished: Promise<void>): Promise<QuestionAnswer> {
  const { qp, decline } = urlStep(
    question,
    vscode.l10n.t('Finish on {0}, then retry {1}', question.host, question.during),
    [
      {
        label: vscode.l10n.t('$(refresh) Done — retry {0}', question.during),
        description: vscode.l10n.t('{0} is asked again', question.server),
        act: 'send',
      },
    ],
  );
  const step = await run(qp, question, decline, finish => {
    void finished.then(() => finish({ value: 'done' }));
    qp.onDidAccept(() => {
      if ((qp.selectedItems[0] ?? qp.activeItems[0])?.act === 'send') finish({ value: 'done' });
    });
  });
  if (step === 'decline') return { action: 'decline' };
  return typeof step === 'object' ? { action: 'accept' } : { action: 'cancel' };
}

/** Shows `input` until `wire` finishes it; Escape (hide), the Decline button and the server withdrawing the question end it too. */
function run(
  input: vscode.QuickPick<Row> | vscode.InputBox,
  question: Question,
  decline: vscode.QuickInputButton,
  wire: (finish: (s: Step) => void) => void,
): Promise<Step> {
  return new Promise(resolve => {
    let settled = false;
    const finish = (s: Step) => {
      if (settled) return;
      settled = true;
      question.signal.removeEventListener('abort', withdrawn);
      resolve(s);
      input.dispose();
    };
    const withdrawn = () => finish('cancel');
    question.signal.addEventListener('abort', withdrawn);
    wire(finish);
    input.onDidTriggerButton(b =>
      finish(b === decline ? 'decline' : b === vscode.QuickInputButtons.Back ? 'back' : 'cancel'),
    );
    input.onDidHide(() => finish('cancel'));
    if (question.signal.aborted) {
      finish('cancel');
      return;
    }
    input.show();
  });
}
