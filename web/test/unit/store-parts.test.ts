import { test } from 'vitest';
import assert from 'node:assert/strict';
import type { Middleware, Reducer, UnknownAction } from 'redux';
import { store } from '../../src/app/store.ts';
import { injectIntoStore, userChangeResets } from '../../src/lib/root-reducer.ts';
import { showToast } from '../../src/lib/toast.ts';

test('when a part is injected after start, then it gets its initial state, its middleware sees every action, and the first parts keep theirs', () => {
  store.dispatch(showToast({ type: 'success', title: 'kept' }));
  const seen: string[] = [];
  const reducer: Reducer<{ count: number }, UnknownAction> = (state = { count: 0 }, action) =>
    action.type === 'probe/add' ? { count: state.count + 1 } : state;
  const middleware: Middleware = () => (next) => (action) => {
    seen.push((action as UnknownAction).type);
    return next(action);
  };

  injectIntoStore({ reducerPath: 'probe', reducer }, middleware, () => ({ type: 'probe/reset' }));
  store.dispatch({ type: 'probe/add' });

  const state = store.getState() as unknown as {
    probe: { count: number };
    toast: { current: { title?: string } | null };
  };
  assert.equal(state.probe.count, 1);
  assert.ok(seen.includes('probe/add'), 'the injected middleware ran');
  assert.equal(state.toast.current?.title, 'kept');
  assert.deepEqual(
    userChangeResets().map((action) => action.type),
    ['probe/reset'],
  );
});
