import assert from 'node:assert/strict';
import { act, render } from '@testing-library/react';
import { afterEach, test, vi } from 'vitest';
import { MemoryRouter, useNavigate, type NavigateFunction } from 'react-router-dom';
import { ScrollRestoration } from '@/app/scroll-restoration';

let navigate: NavigateFunction;
function CaptureNavigate() {
  navigate = useNavigate();
  return null;
}

/** Scrolls the jsdom window to `y` as a browser would report it (scrollY, then a scroll event). */
function scrollWindowTo(y: number) {
  Object.defineProperty(window, 'scrollY', { value: y, configurable: true });
  window.dispatchEvent(new Event('scroll'));
}

afterEach(() => scrollWindowTo(0));

test('when a link opens a new page, then it starts at the top; going back returns to where the previous page was scrolled', () => {
  const scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
  render(
    <MemoryRouter initialEntries={['/offers']}>
      <ScrollRestoration />
      <CaptureNavigate />
    </MemoryRouter>,
  );
  scrollWindowTo(640);
  scrollTo.mockClear();

  act(() => navigate('/offers/42'));
  assert.deepEqual(scrollTo.mock.calls.at(-1), [0, 0], 'a new page starts at the top');

  scrollWindowTo(120);
  act(() => navigate(-1));
  assert.deepEqual(scrollTo.mock.calls.at(-1), [0, 640], 'back returns to 640 px');

  act(() => navigate(1));
  assert.deepEqual(scrollTo.mock.calls.at(-1), [0, 120], 'forward returns to 120 px');
});
