/**
 * The mock's ProblemError takes a code alone and answers with the status the spec gives it (`x-status`, generated
 * into `problemStatus`); the compiler refuses a status number, an unknown code and a code without a status of its own.
 */
import { problemStatus } from 'card-issuing-sdk/server';
import { describe, expect, it } from 'vitest';
import { ProblemError } from '../../mock-server/src/index';
import { loadSpec } from '../helpers/spec';

const spec = loadSpec() as unknown as {
  components: { schemas: { ProblemCode: { enum: string[]; 'x-status': Record<string, number | null> } } };
};

describe('ProblemError', () => {
  it('has the status of its code, as the spec gives it', () => {
    expect(new ProblemError('NOT_FOUND', 'x')).toMatchObject({
      name: 'ProblemError',
      status: 404,
      code: 'NOT_FOUND',
      message: '404 NOT_FOUND: x',
    });
    expect(new ProblemError('PAYLOAD_TOO_LARGE', 'x').status).toBe(413);
    expect(new ProblemError('INSUFFICIENT_FUNDS', 'x').status).toBe(422);
    expect(new ProblemError('STATE_NOT_SAVED', 'x').status).toBe(503);
  });

  it('reads a table generated with one entry per code of the spec', () => {
    expect(problemStatus).toEqual(spec.components.schemas.ProblemCode['x-status']);
    expect(Object.keys(problemStatus)).toEqual(spec.components.schemas.ProblemCode.enum);
  });

  it('an injected fault answers with the status it was injected with', () => {
    expect(ProblemError.injected(418, 'INJECTED_FAULT', 'x')).toMatchObject({
      name: 'ProblemError',
      status: 418,
      code: 'INJECTED_FAULT',
      message: '418 INJECTED_FAULT: x',
    });
    expect(ProblemError.injected(502, 'INTERNAL_ERROR', 'x')).toMatchObject({ status: 502, code: 'INTERNAL_ERROR' });
  });

  // Checked by the type check (npm run typecheck): each directive fails it if the line below it compiles.
  it('takes no status number, no unknown code and no code without a status (compile-time)', () => {
    const refused = () => [
      // @ts-expect-error a status number is not a code
      new ProblemError(404, 'NOT_FOUND', 'x'),
      // @ts-expect-error a code the spec does not have
      new ProblemError('NO_SUCH_CODE', 'x'),
      // @ts-expect-error INJECTED_FAULT has no status of its own (ProblemError.injected gives it one)
      new ProblemError('INJECTED_FAULT', 'x'),
    ];
    expect(refused).toBeTypeOf('function');
  });
});
