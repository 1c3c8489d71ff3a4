// Every command id the extension registers or runs, in one place: package.json contributes the same
// ids (test/static/layering.test.ts checks both lists agree), and code never spells one as a string.
export const Command = {
  runPrompt: 'mcpPrompts.runPrompt',
  runPromptInEditor: 'mcpPrompts.runPromptInEditor',
  rerunLast: 'mcpPrompts.rerunLast',
  runAgain: 'mcpPrompts.runAgain',
  retryPrompt: 'mcpPrompts.retryPrompt',
  refresh: 'mcpPrompts.refresh',
  restartServer: 'mcpPrompts.restartServer',
  stopServer: 'mcpPrompts.stopServer',
  startServer: 'mcpPrompts.startServer',
  signIn: 'mcpPrompts.signIn',
  signOut: 'mcpPrompts.signOut',
  showLog: 'mcpPrompts.showLog',
  copyInvocation: 'mcpPrompts.copyInvocation',
  copyKeybinding: 'mcpPrompts.copyKeybinding',
  pinPrompt: 'mcpPrompts.pinPrompt',
  unpinPrompt: 'mcpPrompts.unpinPrompt',
  filterPrompts: 'mcpPrompts.filterPrompts',
  clearPromptFilter: 'mcpPrompts.clearPromptFilter',
  addServer: 'mcpPrompts.addServer',
  importServers: 'mcpPrompts.importServers',
  copyGatewayConfiguration: 'mcpPrompts.copyGatewayConfiguration',
  allowServer: 'mcpPrompts.allowServer',
  disableServer: 'mcpPrompts.disableServer',
  enableServer: 'mcpPrompts.enableServer',
  focusView: 'mcpPrompts.focusView',
  sendToModel: 'mcpPrompts.sendToModel',
  insertIntoChat: 'mcpPrompts.insertIntoChat',
  continueInAgent: 'mcpPrompts.continueInAgent',
  moreActions: 'mcpPrompts.moreActions',
  copyMarkdown: 'mcpPrompts.copyMarkdown',
  openTranscript: 'mcpPrompts.openTranscript',
  savePromptFile: 'mcpPrompts.savePromptFile',
  showFoundServers: 'mcpPrompts.showFoundServers',
  walkthroughAction: 'mcpPrompts.walkthroughAction',
  inspectSkill: 'mcpPrompts.inspectSkill',
  loadSkill: 'mcpPrompts.loadSkill',
} as const;

export type CommandId = (typeof Command)[keyof typeof Command];

/** VS Code's own commands we run. */
export const Workbench = {
  openChat: 'workbench.action.chat.open',
  newChat: 'workbench.action.chat.newChat',
  revertAndCloseEditor: 'workbench.action.revertAndCloseActiveEditor',
  manageTrust: 'workbench.trust.manage',
  focusPromptsView: 'mcpPrompts.prompts.focus',
  openSettings: 'workbench.action.openSettings',
  openKeybindingsFile: 'workbench.action.openGlobalKeybindingsFile',
} as const;

export type WorkbenchId = (typeof Workbench)[keyof typeof Workbench];
