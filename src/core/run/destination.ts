// Where a result is shown, decided once from the typed settings: the transcript editor, or chat (which
// then sends it to the model, only shows it, or hands it to the agent).

/** mcpPrompts.runTarget: `auto` is chat when a model answers, else the editor. */
export type RunTargetSetting = 'auto' | 'editor';
/** mcpPrompts.chat.afterGet: what chat does with a result. */
export type AfterGet = 'send' | 'show' | 'agent';
/** Asked for by a command (`auto`: let the setting decide). */
export type Where = 'auto' | 'chat' | 'editor';

/** Where a result goes: the transcript editor, or chat (which then sends it, shows it, or hands it to the agent). */
export type Destination = { to: 'editor' } | { to: 'chat'; then: AfterGet };

export interface DestinationSettings {
  runTarget: RunTargetSetting;
  afterGet: AfterGet;
}

/**
 * The one decision of where a result goes. A chat request stays in chat. A command goes to chat when
 * asked to, or (`auto`) when the setting allows and a chat model is there to answer; otherwise to the
 * transcript editor. `chatAvailable` is asked only when it matters.
 */
export async function destination(
  from: 'chat' | 'command',
  where: Where,
  settings: DestinationSettings,
  chatAvailable: () => Promise<boolean>,
): Promise<Destination> {
  const chat: Destination = { to: 'chat', then: settings.afterGet };
  if (from === 'chat' || where === 'chat') return chat;
  if (where === 'editor' || settings.runTarget === 'editor') return { to: 'editor' };
  return (await chatAvailable()) ? chat : { to: 'editor' };
}
