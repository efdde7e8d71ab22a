/**
 * The browser the component tests render into is jsdom: what it lacks
 * (relative URLs in Node's fetch Request, the modal <dialog>) is filled in
 * here the way a browser behaves, and each test starts from an empty
 * document, store and network stub.
 */
import './runtime-config';
import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { store } from '@/lib/store';
import { api } from '@/lib/api-client';
import { clearToast } from '@/lib/toast';

// A browser resolves /api/… against the page; Node's Request needs an absolute URL. jsdom's
// AbortSignal is not Node's, so the (never aborted) signal stays behind.
const NodeRequest = globalThis.Request;
globalThis.Request = class PageRequest extends NodeRequest {
  constructor(input: RequestInfo | URL, init: RequestInit = {}) {
    // eslint-disable-next-line @typescript-eslint/no-unused-vars
    const { signal, ...rest } = init;
    super(typeof input === 'string' ? new URL(input, window.location.href) : input, rest);
  }
};

// jsdom has <dialog> but not its modal methods.
HTMLDialogElement.prototype.showModal ??= function showModal(this: HTMLDialogElement) {
  this.open = true;
};
HTMLDialogElement.prototype.close ??= function close(this: HTMLDialogElement) {
  this.open = false;
};

// jsdom has window.scrollTo but only reports it as not implemented; a browser scrolls (long forms
// scroll to the top on failed validation, spec §2).
window.scrollTo = () => {};

afterEach(() => {
  cleanup();
  store.dispatch(api.util.resetApiState());
  store.dispatch(clearToast());
  vi.restoreAllMocks();
  vi.useRealTimers();
});
