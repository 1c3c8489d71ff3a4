// JSON helpers (src/core/json.ts): equality of server data, which lets a re-list keep what it had.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sameJson } from '../../src/core/json';

test('sameJson: equal whatever the order of keys; arrays in order; types distinct', () => {
  assert.ok(sameJson({ a: 1, b: [{ c: 'x' }, null] }, { b: [{ c: 'x' }, null], a: 1 }));
  assert.ok(!sameJson({ a: 1 }, { a: 1, b: 2 }));
  assert.ok(!sameJson({ a: 1, b: undefined }, { a: 1, c: undefined }));
  assert.ok(!sameJson([1, 2], [2, 1]));
  assert.ok(!sameJson([1], { 0: 1 }));
  assert.ok(!sameJson('1', 1));
  assert.ok(!sameJson(null, {}));
});

test('sameJson: a value nested deeper than the bound counts as different, without recursing into it', () => {
  let deep: unknown = 'leaf';
  for (let i = 0; i < 200_000; i++) deep = [deep];
  let twin: unknown = 'leaf';
  for (let i = 0; i < 200_000; i++) twin = [twin];
  assert.equal(sameJson(deep, twin), false);
  assert.equal(sameJson(deep, deep), true, 'the same object is equal at any depth');
  assert.ok(sameJson([[['x']]], [[['x']]], 4));
  assert.ok(!sameJson([[['x']]], [[['x']]], 2));
});
