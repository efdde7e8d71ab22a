import { expect, test } from 'vitest';
import { screen } from '@testing-library/react';
import { CONFIG_ERROR_TITLE, showConfigError } from '@/app/config-error-page';

test('when the runtime configuration is invalid, then the page says the app cannot start and lists each problem as text', () => {
  const root = document.createElement('div');
  root.append(document.createElement('p'));
  document.body.append(root);

  showConfigError(root, ['bffUrl: expected an http(s) origin', '<b>backendEnvironment</b>: bad']);

  expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(CONFIG_ERROR_TITLE);
  expect(screen.getByRole('alert').textContent).toContain('/config.json');
  const problems = screen.getAllByRole('listitem').map((item) => item.textContent);
  expect(problems).toEqual([
    'bffUrl: expected an http(s) origin',
    '<b>backendEnvironment</b>: bad',
  ]);
  expect(root.querySelector('b')).toBeNull();
  expect(document.title).toBe(`${CONFIG_ERROR_TITLE} - Raly`);
  root.remove();
});
