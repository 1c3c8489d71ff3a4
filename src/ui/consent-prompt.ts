// First start of a workspace-defined server: a modal naming it and its origin, and showing every field
// it will run, set or send as written (core/config/consent.ts consentDetail). Asked one at a time (a reload may add more meanwhile); a dismissed modal (Escape) is not
// asked again this session until the user clicks the tree row.
import * as vscode from 'vscode';
import type { ServerDefinition } from '../core/config/config';
import {
  ConsentDecision,
  ConsentRecord,
  consentDetail,
  consentKey,
  consentState,
  definitionFingerprint,
  describeLaunch,
} from '../core/config/consent';
import { labelText } from '../core/label';
import type { HeldEntry } from '../core/config/server-merge';

export class ConsentPrompt {
  private readonly queue: HeldEntry[] = [];
  private running = false;
  private readonly dismissed = new Set<string>();

  /** `decided` runs after the queue is done if the user allowed or declined any server. */
  constructor(
    private readonly memory: vscode.Memento,
    private readonly log: (def: ServerDefinition) => vscode.LogOutputChannel,
    private readonly decided: () => void,
  ) {}

  /** The user's standing decision for a definition: allowed, denied, or ask. */
  state(def: ServerDefinition): ReturnType<typeof consentState> {
    return consentState(def, this.memory.get<ConsentRecord>(consentKey(def)));
  }

  ask(entries: readonly HeldEntry[]): void {
    for (const entry of entries) {
      if (this.dismissed.has(definitionFingerprint(entry.def))) continue;
      if (!this.queue.some(q => consentKey(q.def) === consentKey(entry.def))) this.queue.push(entry);
    }
    if (!this.running) void this.drain();
  }

  /**
   * "Start Server" given without the modal, as if clicked there: for a window that shows no dialogs (the
   * host tests run in one), through the extension's exports.
   */
  async allow(entry: HeldEntry): Promise<void> {
    if (this.state(entry.def) === 'allowed') return;
    await this.record(entry.def, entry.origin, 'allowed');
    this.decided();
  }

  /** The tree's "click to decide": forget a "no" (or an Escape) and ask again. */
  async reconsider(entry: HeldEntry): Promise<void> {
    await this.memory.update(consentKey(entry.def), undefined);
    this.dismissed.delete(definitionFingerprint(entry.def));
    this.ask([entry]);
  }

  private async drain(): Promise<void> {
    this.running = true;
    let decided = false;
    try {
      while (this.queue.length) {
        const { def, origin } = this.queue[0];
        if (this.state(def) === 'ask') decided = (await this.askOne(def, origin)) || decided;
        this.queue.shift();
      }
    } finally {
      this.running = false;
    }
    if (decided) this.decided();
  }

  /** True when the user chose (either way); false when they dismissed the modal. */
  private async askOne(def: ServerDefinition, origin: string): Promise<boolean> {
    const allow = vscode.l10n.t('Start Server');
    const deny = vscode.l10n.t('Do Not Start');
    const what =
      def.transport.type === 'stdio'
        ? vscode.l10n.t('It runs on your computer as written here (variables not yet filled in):')
        : vscode.l10n.t('It connects and sends as written here (variables not yet filled in):');
    const why = vscode.l10n.t(
      'This server is defined by the workspace, not by you. Start it only if you trust where the workspace comes from.',
    );
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('Start the MCP server "{0}" defined in {1}?', labelText(def.name), labelText(origin)),
      { modal: true, detail: `${what}\n\n${consentDetail(def)}\n\n${why}` },
      allow,
      deny,
    );
    if (choice === undefined) {
      this.dismissed.add(definitionFingerprint(def));
      return false;
    }
    await this.record(def, origin, choice === allow ? 'allowed' : 'denied');
    return true;
  }

  /** Keeps the decision for this exact definition, and says it in the server's log. */
  private async record(def: ServerDefinition, origin: string, decision: ConsentDecision): Promise<void> {
    const record: ConsentRecord = { fingerprint: definitionFingerprint(def), decision };
    await this.memory.update(consentKey(def), record);
    this.log(def).info(
      decision === 'allowed'
        ? vscode.l10n.t('You allowed {0} from {1} to start ({2})', def.name, origin, labelText(describeLaunch(def)))
        : vscode.l10n.t('You chose not to start {0} from {1}', def.name, origin),
    );
  }
}
