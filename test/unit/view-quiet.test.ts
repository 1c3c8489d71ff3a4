// A box that opens on its own waits until the sidebar is still (src/ui/view-quiet.ts): not while the view
// changes, at once when it is hidden, never longer than the bound while it keeps changing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ViewQuiet } from '../../src/ui/view-quiet';

/** A view's change event, as vscode.EventEmitter gives it. */
function changes() {
  const listeners = new Set<(e: unknown) => void>();
  const event = (listener: (e: unknown) => void) => {
    listeners.add(listener);
    return { dispose: () => listeners.delete(listener) };
  };
  return { event, fire: () => listeners.forEach(l => l(undefined)) };
}

const tick = (ms: number) => new Promise(resolve => setTimeout(resolve, ms));

test('a box waits until the visible view has stopped changing', async () => {
  const view = changes();
  const quiet = new ViewQuiet();
  quiet.watch(view.event, () => true);
  const order: string[] = [];
  view.fire();
  const settled = quiet.settled().then(() => order.push('settled'));
  for (let i = 0; i < 3; i++) {
    await tick(150);
    view.fire();
    order.push('changed');
  }
  await settled;
  assert.deepEqual(order, ['changed', 'changed', 'changed', 'settled']);
  quiet.dispose();
});

test('a hidden view does not hold a box back, nor does a cancelled box wait', async () => {
  const view = changes();
  const quiet = new ViewQuiet();
  let visible = false;
  quiet.watch(view.event, () => visible);
  view.fire();
  const order: string[] = [];
  const settled = quiet.settled().then(() => order.push('settled'));
  await tick(0);
  order.push('later');
  await settled;
  assert.deepEqual(order, ['settled', 'later']);
  visible = true;
  view.fire();
  const cancelled = { isCancellationRequested: true, onCancellationRequested: () => ({ dispose() {} }) };
  await quiet.settled(cancelled);
  quiet.dispose();
});

test('a view that keeps changing holds a box back only so long', async () => {
  const view = changes();
  const quiet = new ViewQuiet();
  quiet.watch(view.event, () => true);
  const flicker = setInterval(() => view.fire(), 50);
  try {
    view.fire();
    let done = false;
    const settled = quiet.settled().then(() => (done = true));
    await tick(500);
    assert.equal(done, false, 'settled while the view still changed');
    await settled;
  } finally {
    clearInterval(flicker);
    quiet.dispose();
  }
});
