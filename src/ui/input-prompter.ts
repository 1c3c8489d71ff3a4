// `${input:id}` in a server definition: asked once, then kept. Password inputs live in SecretStorage,
// others in workspace state, keyed by id and by the definition that asked (its consent fingerprint):
// a value typed for one server is never handed to another, nor to a changed one.
import * as vscode from 'vscode';
import type { InputDefinition, ServerDefinition } from '../core/config/config';
import { inputStorageKey } from '../core/config/consent';
import { labelText } from '../core/label';
import type { ViewQuiet } from './view-quiet';

export class InputPrompter {
  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly workspaceState: vscode.Memento,
    /** The box opens once the sidebar is still, so that its redraw does not take the keyboard (view-quiet.ts). */
    private readonly views: ViewQuiet,
  ) {}

  /** The value kept for this input and definition, without asking. */
  async stored(input: InputDefinition | undefined, id: string, def: ServerDefinition): Promise<string | undefined> {
    const key = inputStorageKey(def, id);
    return input?.password ? await this.secrets.get(key) : this.workspaceState.get<string>(key);
  }

  /** Asks for the value and keeps it; undefined when the user cancels or `token` closes the box. */
  async ask(
    input: InputDefinition | undefined,
    id: string,
    def: ServerDefinition,
    token: vscode.CancellationToken,
  ): Promise<string | undefined> {
    const key = inputStorageKey(def, id);
    await this.views.settled(token);
    if (token.isCancellationRequested) return undefined;
    const title = vscode.l10n.t('{0}: {1}', labelText(def.name), labelText(input?.description ?? id));
    const value =
      input?.type === 'pickString' && input.options?.length
        ? await vscode.window.showQuickPick(input.options, { title, ignoreFocusOut: true }, token)
        : await vscode.window.showInputBox(
            {
              title,
              value: input?.default,
              password: input?.password,
              ignoreFocusOut: true,
            },
            token,
          );
    if (value === undefined) return undefined;
    if (input?.password) await this.secrets.store(key, value);
    else await this.workspaceState.update(key, value);
    return value;
  }
}
