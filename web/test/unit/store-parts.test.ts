import { test } from 'vitest';
import assert from 'node:assert/strict';
import type { Middleware, UnknownAction } from '@reduxjs/toolkit';
import { createSlice } from '@reduxjs/toolkit';
import { dynamicMiddleware, rootReducer, store } from '../../src/lib/store.ts';
import { showToast } from '../../src/lib/toast.ts';

test('when a part is injected after start, then its reducer and middleware see every action and the first parts keep their state', () => {
  // Arrange
  store.dispatch(showToast({ type: 'success', title: 'kept' }));
  const seen: string[] = [];
  const probe = createSlice({
    name: 'probe',
    initialState: { count: 0 },
    reducers: { added: (state) => ({ count: state.count + 1 }) },
  });
  const middleware: Middleware = () => (next) => (action) => {
    seen.push((action as UnknownAction).type);
    return next(action);
  };

  // Act
  rootReducer.inject(probe);
  dynamicMiddleware.addMiddleware(middleware);
  store.dispatch(probe.actions.added());

  // Assert
  const state = store.getState() as unknown as {
    probe: { count: number };
    toast: { current: { title?: string } | null };
  };
  assert.equal(state.probe.count, 1);
  assert.ok(seen.includes(probe.actions.added.type), 'the injected middleware ran');
  assert.equal(state.toast.current?.title, 'kept');
});
