import { test } from 'vitest';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { clearToast, showToast, toastSlice, type ToastState } from '../../src/lib/toast.ts';
import { displayNameOf } from '../../src/components/layout/current-user.ts';
import { signedInNav, signedOutNav } from '../../src/components/layout/nav-items.ts';
import { aUserRecord } from '@raly/test-support/records';

const reduce = (state: ToastState | undefined, action: Parameters<typeof toastSlice.reducer>[1]) =>
  toastSlice.reducer(state, action);

test('when a toast is shown with only a title, then it shows with that title and no message', () => {
  const title = `Saved ${randomUUID()}`;

  const state = reduce(undefined, showToast({ type: 'success', title }));

  assert.equal(state.current?.title, title);
  assert.equal(state.current?.message, undefined);
  assert.equal(state.current?.type, 'success');
});

test('when a second toast replaces the first, then clearing the first id leaves the second on screen', () => {
  const first = reduce(undefined, showToast({ type: 'alert', message: randomUUID() }));
  const second = reduce(first, showToast({ type: 'success', message: randomUUID() }));

  const after = reduce(second, clearToast(first.current!.id));

  assert.equal(after.current?.id, second.current!.id);
  assert.notEqual(first.current!.id, second.current!.id);
});

test('when the toast on screen is cleared by its id, then no toast shows', () => {
  const shown = reduce(
    undefined,
    showToast({ type: 'alert', title: 'Problem', message: randomUUID() }),
  );

  assert.equal(reduce(shown, clearToast(shown.current!.id)).current, null);
});

test('when the user is a creator, then the header names them by username', () => {
  const user = aUserRecord();

  assert.equal(displayNameOf(user), user.username);
});

test('when the user is a brand user, then the header names them by first and last name', () => {
  const user = aUserRecord({ username: null, brand: { id: randomUUID(), isAdmin: true } });

  assert.equal(displayNameOf(user), 'Ada Lovelace');
});

test('when a user has neither username nor name yet, then the header falls back to the e-mail', () => {
  const user = aUserRecord({ username: null, firstName: '', lastName: '' });

  assert.equal(displayNameOf(user), user.email);
});

test('when signed out, then the header links are Home, Earn As Creator and Grow As Brand; signed in, Home and Dashboard', () => {
  assert.deepEqual(
    signedOutNav.map((item) => [item.label, item.to]),
    [
      ['Home', '/'],
      ['Earn As Creator', '/join/creator'],
      ['Grow As Brand', '/join/brand'],
    ],
  );
  assert.deepEqual(
    signedInNav.map((item) => [item.label, item.to]),
    [
      ['Home', '/'],
      ['Dashboard', '/dashboard'],
    ],
  );
});
