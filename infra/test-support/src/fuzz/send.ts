/** Sending one drawn request with exactly its bytes. */
import { request as httpRequest } from 'node:http';
import type { FuzzCase } from './types';

export interface Answer {
  /** HTTP status, or why there is none. */
  status: number | 'hang' | 'dropped' | 'cut';
  text: string;
  contentType: string;
  error?: string;
}

/** Sends one request with node:http (exact bytes, raw path), never following redirects. */
export function send(baseUrl: string, fuzzCase: FuzzCase, timeoutMs: number): Promise<Answer> {
  const url = new URL(baseUrl);
  const { payload } = fuzzCase;
  return new Promise((resolve) => {
    let done = false;
    const finish = (answer: Answer) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(answer);
    };
    const headers: Record<string, string> = {
      ...payload.headers,
      ...fuzzCase.credential.headers,
      connection: 'close',
    };
    if (payload.body) headers['content-length'] = String(payload.body.length);
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: url.port,
        method: fuzzCase.route.method,
        path: fuzzCase.path,
        headers,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size < 64 * 1024) chunks.push(chunk);
          size += chunk.length;
        });
        res.on('end', () =>
          finish({
            status: res.statusCode ?? 0,
            text: Buffer.concat(chunks).toString('utf8'),
            contentType: String(res.headers['content-type'] ?? ''),
          }),
        );
        res.on('error', (error) =>
          finish({
            status: res.statusCode ?? 'dropped',
            text: Buffer.concat(chunks).toString('utf8'),
            contentType: '',
            error: error.message,
          }),
        );
      },
    );
    const timer = setTimeout(() => {
      finish({ status: 'hang', text: '', contentType: '' });
      req.destroy();
    }, timeoutMs);
    req.on('error', (error) => {
      // A server that answers early and closes while we still send: the answer may still be read.
      if (payload.cutAfterBytes !== undefined) finish({ status: 'cut', text: '', contentType: '' });
      else finish({ status: 'dropped', text: '', contentType: '', error: error.message });
    });
    if (payload.cutAfterBytes !== undefined && payload.body) {
      req.write(payload.body.subarray(0, payload.cutAfterBytes), () => {
        setTimeout(() => {
          req.destroy();
          finish({ status: 'cut', text: '', contentType: '' });
        }, 50);
      });
      return;
    }
    req.end(payload.body);
  });
}
