/**
 * The target's answer, read with bounds: a sandbox that hangs or streams without end must not hold the proxy's
 * memory or its caller forever.
 * @module
 */

/** The bounds of one exchange with the target. */
export interface AnswerLimits {
  /** From sending the request to the answer's last byte. */
  timeoutMs: number;
  /** The largest answer body read; a larger one is refused (502). */
  maxBytes: number;
}

/** The proxy's defaults: 30 s, 8 MiB (the API's largest answers, a full page of a list, are well under 1 MiB). */
export const DEFAULT_ANSWER_LIMITS: AnswerLimits = { timeoutMs: 30_000, maxBytes: 8 * 1024 * 1024 };

/** What came back from the target, or why nothing usable did. */
export type TargetAnswer =
  | { ok: true; response: Response; body: Buffer }
  | {
      ok: false;
      status: 502 | 504;
      code: 'TARGET_UNREACHABLE' | 'TARGET_TIMEOUT' | 'TARGET_ANSWER_TOO_LARGE';
      cause: string;
    };

/** Sends the request and reads its answer within `limits`. */
export async function fetchBounded(url: URL, init: RequestInit, limits: AnswerLimits): Promise<TargetAnswer> {
  const controller = new AbortController();
  let late = false;
  const timer = setTimeout(() => {
    late = true;
    controller.abort();
  }, limits.timeoutMs);
  const timedOut = (): TargetAnswer => ({
    ok: false,
    status: 504,
    code: 'TARGET_TIMEOUT',
    cause: `no complete answer within ${limits.timeoutMs} ms`,
  });
  try {
    let response: Response;
    try {
      response = await fetch(url, { ...init, redirect: 'manual', signal: controller.signal });
    } catch (error) {
      if (late) return timedOut();
      const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
      return { ok: false, status: 502, code: 'TARGET_UNREACHABLE', cause };
    }
    const declared = Number(response.headers.get('content-length'));
    const tooLarge = (): TargetAnswer => {
      controller.abort();
      return {
        ok: false,
        status: 502,
        code: 'TARGET_ANSWER_TOO_LARGE',
        cause: `an answer over ${limits.maxBytes} bytes`,
      };
    };
    if (Number.isFinite(declared) && declared > limits.maxBytes) return tooLarge();
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      for await (const chunk of response.body ?? []) {
        size += chunk.byteLength;
        if (size > limits.maxBytes) break;
        chunks.push(chunk);
      }
    } catch (error) {
      if (late) return timedOut();
      return { ok: false, status: 502, code: 'TARGET_UNREACHABLE', cause: (error as Error).message };
    }
    return size > limits.maxBytes ? tooLarge() : { ok: true, response, body: Buffer.concat(chunks, size) };
  } finally {
    clearTimeout(timer);
  }
}
