// Smoke test of the real chat UI: a plain message (no @participant) reaches the selected model, the
// deterministic Fake Echo, and its streamed answer is rendered.
const { openWorkbench, runStandalone } = require('./harness');

module.exports = async function smoke(ctx) {
  const ui = await openWorkbench(ctx); // waits until the chat input shows "Fake Echo"
  await ui.screenshot('ready');
  await ui.typeInChat('hello from the smoke test');
  await ui.waitForText('FAKE-MODEL received 1 messages: [user] hello from the smoke test', {
    within: '.interactive-session',
  });
  await ui.screenshot('answered');
};

if (require.main === module) runStandalone(module, __filename);
