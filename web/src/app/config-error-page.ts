/**
 * The page shown instead of the app when its runtime configuration
 * (/config.json, config/env) is missing or invalid: what is wrong, field by
 * field, for whoever deployed it. Plain DOM, no React: it must show even
 * when nothing else of the app can start. Text only (textContent), so a
 * hostile value cannot become markup.
 */
import { RUNTIME_CONFIG_PATH } from '@/config/env';

/** The heading of the page (also its document title). */
export const CONFIG_ERROR_TITLE = 'Raly cannot start';

/**
 * Replaces `root`'s content with the configuration error page.
 * @param root the app's mount point
 * @param problems one line per missing or malformed value
 */
export function showConfigError(root: HTMLElement, problems: readonly string[]): void {
  const element = <K extends keyof HTMLElementTagNameMap>(
    tag: K,
    className: string,
    text?: string,
  ) => {
    const created = document.createElement(tag);
    created.className = className;
    if (text !== undefined) created.textContent = text;
    return created;
  };
  const section = element('section', 'mx-auto max-w-2xl px-4 py-24 sm:py-32');
  section.setAttribute('role', 'alert');
  section.append(
    element('h1', 'text-3xl font-bold tracking-tight text-slate-900', CONFIG_ERROR_TITLE),
    element(
      'p',
      'mt-6 text-base text-slate-600',
      `Its configuration (${RUNTIME_CONFIG_PATH}) is missing or invalid. Whoever deployed it can fix it; the problems were:`,
    ),
  );
  const list = element('ul', 'mt-4 list-disc space-y-1 pl-6 font-mono text-sm text-red-700');
  for (const problem of problems) list.append(element('li', '', problem));
  section.append(list);
  document.title = `${CONFIG_ERROR_TITLE} - Raly`;
  root.replaceChildren(section);
}
