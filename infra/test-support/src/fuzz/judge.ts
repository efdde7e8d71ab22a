/** What is wrong with an answer: a 5xx, a hang, a dropped connection, a success it must refuse, a refusal without the error shape. */
import { acceptable } from './cases';
import type { Answer } from './send';
import type { FuzzCase } from './types';
import { short } from './values';

/** What is wrong with an answer, or undefined when it is fine. */
export function judge(
  fuzzCase: FuzzCase,
  answer: Answer,
): { cause: string; detail: string } | undefined {
  const { status } = answer;
  if (status === 'cut') return undefined;
  if (status === 'hang') return { cause: 'no answer (hang)', detail: '' };
  if (status === 'dropped')
    return { cause: 'connection dropped without an answer', detail: answer.error ?? '' };
  const detail = short(answer.text.replace(/\s+/g, ' '), 160);
  if (status >= 500) return { cause: `${status} ${errorCodeOf(answer.text) ?? ''}`.trim(), detail };
  if (status < 400 && !acceptable(fuzzCase.route, fuzzCase.credential))
    return {
      cause: `${status} with credentials the route must refuse`,
      detail,
    };
  if (status >= 400) {
    const shapeProblem = errorShapeProblem(answer, fuzzCase.route.callable === true);
    if (shapeProblem) return { cause: `${status} ${shapeProblem}`, detail };
  }
  return undefined;
}

function errorCodeOf(text: string): string | undefined {
  try {
    const code = (JSON.parse(text) as { error?: { code?: unknown } }).error?.code;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}

/** Checks the docs/api.md error shape; returns what is wrong, or undefined. */
function errorShapeProblem(answer: Answer, callable: boolean): string | undefined {
  if (!answer.contentType.includes('application/json'))
    return `answered ${answer.contentType || 'no content type'}, not JSON`;
  let body: { error?: { code?: unknown; message?: unknown; status?: unknown } };
  try {
    body = JSON.parse(answer.text) as typeof body;
  } catch {
    return 'body is not JSON';
  }
  const error = body.error;
  if (!error || typeof error.code !== 'string' || !error.code) return 'body without error.code';
  if (typeof error.message !== 'string' || !error.message.trim()) return 'body without a message';
  if (/\n\s+at /.test(error.message)) return 'message carries a stack trace';
  if (callable && (typeof error.status !== 'string' || !error.status))
    return 'callable error without error.status';
  return undefined;
}
