/**
 * Before the suite runs: is the server there, is it the mock (its control API answers `GET /__mock/fixtures`), and
 * does it accept our signature. Each "no" that would make every test fail the same way is a {@link CannotRun}: one
 * line for the user, exit code 2, instead of a hundred identical failures.
 * @module
 */
import { signRequest } from 'card-issuing-sdk';
import { createTenant, freshCredentials } from 'card-issuing-mock/control';
import type { SigningOptions } from '../suite/support/target';

/** The run cannot start; `message` is the one line the user reads. */
export class CannotRun extends Error {
  override name = 'CannotRun';
}

/** A UUID v4 that names nothing. */
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const PROBE_TIMEOUT_MS = 10_000;

/** Why a request did not get an answer, in words (ECONNREFUSED, ENOTFOUND, a timeout, ...). */
export function networkReason(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code === 'ECONNREFUSED') return 'connection refused';
  if (cause?.code === 'ENOTFOUND') return 'host not found';
  if (cause?.code) return cause.code;
  if ((error as { name?: string }).name === 'TimeoutError') return `no answer within ${PROBE_TIMEOUT_MS / 1000} s`;
  return cause?.message ?? (error as Error).message ?? String(error);
}

/**
 * True when the server is the mock: its control API answers `GET /__mock/fixtures` with JSON. With `waitSeconds`, a
 * server that does not answer yet (a CI job's step that started it in the background) is asked again until then.
 */
export async function probeControlApi(baseUrl: string, waitSeconds = 0): Promise<boolean> {
  const deadline = Date.now() + waitSeconds * 1000;
  let response: Response;
  for (;;) {
    try {
      response = await fetch(`${baseUrl}/__mock/fixtures`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
      break;
    } catch (error) {
      if (Date.now() >= deadline)
        throw new CannotRun(
          `cannot reach ${baseUrl}: ${networkReason(error)}${waitSeconds > 0 ? ` (waited ${waitSeconds} s)` : ''}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  const text = await response.text();
  if (!response.ok) return false;
  try {
    return typeof JSON.parse(text) === 'object';
  } catch {
    return false;
  }
}

/**
 * One signed request that changes nothing: a GET of an unknown user, or (`withBody`) a registration with an empty
 * body, which a server refuses as invalid once the signature passed. The status and problem code the server gave.
 */
async function signedProbe(
  baseUrl: string,
  credentials: { apiKey: string; apiSecret: string },
  signing: SigningOptions,
  withBody = false,
) {
  const url = withBody ? `${baseUrl}/s2s/users` : `${baseUrl}/s2s/users/${UNKNOWN_ID}`;
  const method = withBody ? 'POST' : 'GET';
  const body = withBody ? '{}' : undefined;
  const { authorization } = await signRequest({ method, url, ...(body ? { body } : {}), ...credentials, ...signing });
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers: { authorization, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body } : {}),
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
  } catch (error) {
    throw new CannotRun(`cannot reach ${baseUrl}: ${networkReason(error)}`);
  }
  const answer = (await response.json().catch(() => ({}))) as { code?: unknown };
  return { status: response.status, code: typeof answer.code === 'string' ? answer.code : undefined };
}

/**
 * Checks that the server accepts the run's signature (on a tenant of its own when it is the mock). When it refuses,
 * tries the other secret encoding once, so that the line the user reads names the likely cause.
 */
export async function probeSigning(
  baseUrl: string,
  control: boolean,
  credentials: { apiKey: string; apiSecret: string } | undefined,
  signing: SigningOptions,
): Promise<void> {
  let own = credentials;
  if (control) {
    own = freshCredentials('contract-probe');
    await createTenant(baseUrl, own).catch((error: unknown) => {
      throw new CannotRun(
        `the mock at ${baseUrl} refused a new tenant (POST /__mock/credentials): ${(error as Error).message}`,
      );
    });
  }
  if (!own) throw new CannotRun(`${baseUrl} has no mock control API: pass the sandbox's --api-key and --api-secret`);
  const first = await signedProbe(baseUrl, own, signing);
  if (first.status !== 401) return probeBodyHash(baseUrl, own, signing);
  const refused = `every request is refused by signing: GET /s2s/users/{id} signed with api key ${own.apiKey} and --secret-encoding ${signing.secretEncoding} got 401 ${first.code ?? '(no code)'}`;
  if (first.code === 'AUTH_UNKNOWN_KEY') throw new CannotRun(`${refused}: the server does not know the api key`);
  if (first.code === 'AUTH_TIMESTAMP_SKEW')
    throw new CannotRun(`${refused}: this machine's clock is more than 300 s from the server's`);
  const other = signing.secretEncoding === 'utf8' ? 'base64' : 'utf8';
  const canTry = other === 'utf8' || /^[A-Za-z0-9+/]+={0,2}$/.test(own.apiSecret);
  if (canTry && (await signedProbe(baseUrl, own, { ...signing, secretEncoding: other })).status !== 401) {
    throw new CannotRun(
      `${refused}; signed with the secret ${other === 'base64' ? 'base64-decoded' : 'as UTF-8 bytes'} it is accepted: pass --secret-encoding ${other}`,
    );
  }
  throw new CannotRun(
    `${refused}; the other secret encoding is refused too: check the secret, and that the server sees the host and port in ${baseUrl}`,
  );
}

/**
 * With GETs accepted, a request with a body refused by signing means the body hash: the server covers it and we do
 * not, or the other way round. Every test that sends a body would fail the same way, so the run stops here.
 */
async function probeBodyHash(
  baseUrl: string,
  credentials: { apiKey: string; apiSecret: string },
  signing: SigningOptions,
): Promise<void> {
  const withBody = await signedProbe(baseUrl, credentials, signing, true);
  if (withBody.status !== 401 || withBody.code !== 'AUTH_SIGNATURE_MISMATCH') return;
  const toggled = await signedProbe(baseUrl, credentials, { ...signing, bodyHash: !signing.bodyHash }, true);
  const refused = `every request with a body is refused by signing: POST /s2s/users got 401 AUTH_SIGNATURE_MISMATCH ${signing.bodyHash ? 'with' : 'without'} the body hash, while GETs are accepted`;
  if (toggled.status !== 401)
    throw new CannotRun(
      `${refused}; ${signing.bodyHash ? 'without' : 'with'} it the request is accepted: ${signing.bodyHash ? 'drop' : 'pass'} --sign-body`,
    );
  throw new CannotRun(`${refused}; ${signing.bodyHash ? 'without' : 'with'} it too: check how the server signs a body`);
}
