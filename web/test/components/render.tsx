/**
 * Renders a component the way the app does (the Redux store, a router at
 * `route`) and answers its calls to the BFF from the test: the BFF is
 * outside the component under test.
 */
import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { vi } from 'vitest';
import { store } from '@/lib/store';

/** Renders `ui` inside the app's store and a router at `route` (default `/`). */
export function renderInApp(ui: ReactElement, { route = '/' }: { route?: string } = {}) {
  return render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[route]}>{ui}</MemoryRouter>
    </Provider>,
  );
}

/**
 * A call the component made to the BFF: method, path (e.g. `/api/me`), JSON
 * body and, only when the URL has one, its query string (e.g. `?page=2`).
 */
export interface BffCall {
  method: string;
  path: string;
  body: unknown;
  search?: string;
}

/**
 * Answers every fetch with `answer(call)` (a promise that never settles keeps the call pending).
 * @returns the calls made so far
 */
export function answerBff(answer: (call: BffCall) => Promise<Response> | Response): BffCall[] {
  const calls: BffCall[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const request = input as Request;
    const text = await request.text();
    const { pathname, search } = new URL(request.url);
    const call: BffCall = {
      method: request.method,
      path: pathname,
      body: text ? JSON.parse(text) : undefined,
      ...(search ? { search } : {}),
    };
    calls.push(call);
    return answer(call);
  });
  return calls;
}

/** A JSON answer of the BFF, `{ data }` on success (docs/api.md). */
export const jsonAnswer = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
