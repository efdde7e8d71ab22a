import assert from 'node:assert/strict';
import { act, fireEvent, screen } from '@testing-library/react';
import { describe, test, vi } from 'vitest';
import { TOAST_DURATION_MS } from '@raly/contracts/constants';
import { store } from '@/lib/store';
import { Toaster } from '@/components/ui/toaster';
import { showToast } from '@/lib/toast';
import { uniqueToken } from '@raly/test-support/records';
import { renderInApp } from './render';

describe('the toast', () => {
  test('when a success toast is shown, then it is a status with its title and message, and Close removes it', () => {
    // Arrange
    const title = `Saved ${uniqueToken()}`;
    renderInApp(<Toaster />);
    act(() => {
      store.dispatch(showToast({ type: 'success', title, message: 'All good' }));
    });

    // Act
    const toast = screen.getByRole('status');
    assert.match(toast.textContent ?? '', new RegExp(`${title}.*All good`));
    fireEvent.click(screen.getByRole('button', { name: 'Close notification' }));

    // Assert
    assert.equal(screen.queryByRole('status'), null);
    assert.equal(screen.queryByText(title), null);
  });

  test('when an alert toast is left alone, then it is still there just before 5000 ms and gone at 5000 ms', () => {
    // Arrange
    vi.useFakeTimers();
    const message = `Failed ${uniqueToken()}`;
    renderInApp(<Toaster />);
    act(() => {
      store.dispatch(showToast({ type: 'alert', message }));
    });

    // Act
    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS - 1));
    const before = screen.queryByRole('alert');
    act(() => vi.advanceTimersByTime(1));

    // Assert
    assert.equal(TOAST_DURATION_MS, 5000);
    assert.equal(before?.textContent?.includes(message), true);
    assert.equal(screen.queryByRole('alert'), null);
  });
});
