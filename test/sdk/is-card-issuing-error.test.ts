import { createRequire } from 'node:module';
import { createContext, runInContext } from 'node:vm';
import * as esbuild from 'esbuild';
import { HTTPError } from 'ky';
import { describe, expect, it } from 'vitest';
import {
  BusinessRuleError,
  CardDetailsDecryptionError,
  CardIssuingError,
  FlowError,
  NotFoundError,
  PublicKeyInvalidError,
  ResponseValidationError,
  isCardIssuingError,
} from 'card-issuing-sdk';
import { errorFromResponse } from 'card-issuing-sdk/schemas';
import { repoPath } from '../helpers/spec';

// isCardIssuingError reads a brand, not the class: it must say true for an error made by another copy of the SDK in
// another realm (where `instanceof` says false), and false for look-alikes that carry the same name and code.
// The ESM and CommonJS builds side by side are checked from the packed tarballs (npm run test:consumers).

/** A second copy of the SDK's errors module, compiled on its own and run in a fresh vm context (another realm). */
async function foreignErrors() {
  const built = await esbuild.build({
    stdin: {
      contents: ['base', 'classes', 'from-response']
        .map((m) => `export * from ${JSON.stringify(repoPath(`sdk/src/core/errors/${m}.ts`))};`)
        .join('\n'),
      resolveDir: repoPath('sdk/src'),
      loader: 'ts',
    },
    bundle: true,
    format: 'cjs',
    platform: 'neutral',
    external: ['zod'],
    write: false,
    logLevel: 'silent',
  });
  const module = { exports: {} as Record<string, unknown> };
  const context = createContext({
    module,
    exports: module.exports,
    require: createRequire(repoPath('sdk/package.json')),
  });
  runInContext(built.outputFiles[0]!.text, context);
  return {
    errors: module.exports as typeof import('../../sdk/src/index') & typeof import('../../sdk/src/schemas'),
    realm: context,
  };
}

describe('isCardIssuingError', () => {
  const notFound = () =>
    errorFromResponse({
      status: 404,
      headers: new Headers(),
      body: { type: 'about:blank', title: 'Not found', status: 404, code: 'NOT_FOUND' },
    });

  it('is true for every error class of the SDK, base and subclasses', () => {
    const errors = [
      new CardIssuingError({ code: 'INTERNAL_ERROR' }),
      notFound(),
      new BusinessRuleError({ status: 422, code: 'INSUFFICIENT_FUNDS' }),
      new ResponseValidationError({ operation: 'getUser', errors: [{ path: 'id', message: 'Required' }] }),
      new PublicKeyInvalidError('too short'),
      new CardDetailsDecryptionError('tampered'),
      new FlowError({ flow: 'issueCard', step: 'chargeDraft', cause: notFound() }),
    ];
    for (const error of errors) expect(isCardIssuingError(error), error.name).toBe(true);
    expect(notFound()).toBeInstanceOf(NotFoundError);
  });

  it('is false for look-alikes: same name and code, a plain Error, a ky HTTPError, a private symbol, primitives', () => {
    const lookAlike = Object.assign(new Error('Not found'), { name: 'NotFoundError', code: 'NOT_FOUND', status: 404 });
    const privateSymbol = { [Symbol('card-issuing-sdk.CardIssuingError')]: true, code: 'NOT_FOUND' };
    const jsonCopy = JSON.parse(JSON.stringify(notFound())) as unknown;
    const spread = { ...notFound() };
    const kyError = new HTTPError(new Response(null, { status: 404 }), new Request('https://x.test/'), {} as never);
    for (const value of [
      lookAlike,
      privateSymbol,
      jsonCopy,
      spread,
      kyError,
      new Error('x'),
      null,
      undefined,
      'NOT_FOUND',
      404,
    ]) {
      expect(isCardIssuingError(value)).toBe(false);
    }
  });

  it('with a code: true only for an error of that code, a FlowError only for its own codes', () => {
    const conflict = errorFromResponse({
      status: 409,
      headers: new Headers(),
      body: {
        type: 'about:blank',
        title: 'Conflict',
        status: 409,
        code: 'INVALID_TRANSITION',
        currentStatus: 'CANCELED',
        operation: 'increaseApprovalBudget',
      },
    });
    expect(isCardIssuingError(conflict, 'INVALID_TRANSITION')).toBe(true);
    expect(isCardIssuingError(conflict, 'NOT_FOUND')).toBe(false);
    if (isCardIssuingError(conflict, 'INVALID_TRANSITION')) expect(conflict.currentStatus).toBe('CANCELED');
    const flow = new FlowError({ flow: 'issueCard', step: 'chargeDraft', cause: conflict });
    expect(flow.code).toBe('INVALID_TRANSITION');
    expect(isCardIssuingError(flow, 'INVALID_TRANSITION')).toBe(false); // its cause is
    expect(isCardIssuingError(flow.cause, 'INVALID_TRANSITION')).toBe(true);
    const declined = new FlowError({ flow: 'issueCard', step: 'consents', code: 'CONSENTS_DECLINED' });
    expect(isCardIssuingError(declined, 'CONSENTS_DECLINED')).toBe(true);
    expect(isCardIssuingError({ code: 'INVALID_TRANSITION' }, 'INVALID_TRANSITION')).toBe(false);
  });

  it('is true across realms, both ways, where instanceof is false', async () => {
    const { errors: foreign, realm } = await foreignErrors();
    const theirs = foreign.errorFromResponse({
      status: 404,
      headers: new Headers(),
      body: { type: 'about:blank', title: 'Not found', status: 404, code: 'NOT_FOUND' },
    });
    // Really another copy in another realm: neither its class nor its Error is ours.
    expect(theirs instanceof CardIssuingError).toBe(false);
    expect(theirs instanceof Error).toBe(false);
    expect(theirs instanceof (runInContext('Error', realm) as ErrorConstructor)).toBe(true);
    expect(isCardIssuingError(theirs)).toBe(true);
    expect(theirs.code).toBe('NOT_FOUND');

    const ours = notFound();
    expect(ours instanceof foreign.CardIssuingError).toBe(false);
    expect(foreign.isCardIssuingError(ours)).toBe(true);
    expect(foreign.isCardIssuingError(new (runInContext('Error', realm) as ErrorConstructor)('plain'))).toBe(false);
  });
});
