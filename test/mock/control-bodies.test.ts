/**
 * Bodies of the control API that are not what a route reads: a body that is not a JSON object (an array, a string, a
 * number, null) is 400 VALIDATION_FAILED naming `body`, never read as `{}`; invalid JSON is 400 MALFORMED_JSON, as
 * on the API.
 */
import { describe, expect, it } from 'vitest';
import { createMock, createMockFetch } from '../../mock-server/src/index';

const BASE = 'https://api.example.test';

/** A raw control request to a fresh mock's default tenant (the text is sent as it is, or no body). */
function raw(method: string, path: string, text?: string) {
  const mock = createMock({ baseUrl: BASE });
  const response = createMockFetch(mock.handlers)(`${BASE}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(text === undefined ? {} : { body: text }),
  });
  return { mock, response };
}

async function problemOf(response: Promise<Response>) {
  const answer = await response;
  expect(answer.headers.get('content-type')).toBe('application/problem+json');
  return { status: answer.status, ...((await answer.json()) as { code: string; errors?: { path: string }[] }) };
}

const NOT_OBJECTS = ['[]', '[{"operationId":"getUser","status":503}]', '"getUser"', '503', 'null', 'true'];

/** Every control route whose body is a JSON object (optional or required). */
const OBJECT_ROUTES: [string, string][] = [
  ['POST', '/__mock/overrides'],
  ['POST', '/__mock/faults'],
  ['POST', '/__mock/scenario'],
  ['PUT', '/__mock/state'],
  ['POST', '/__mock/clock/advance'],
  ['POST', '/__mock/credentials'],
  ['POST', '/__mock/deposits/incoming'],
  ['POST', '/__mock/given/user'],
  ['POST', '/__mock/given/approval'],
  ['POST', '/__mock/given/businessUser'],
  ['POST', '/__mock/given/card'],
  ['POST', '/__mock/given/balance'],
  ['POST', '/__mock/given/depositAddress'],
  ['POST', '/__mock/given/verification'],
  ['POST', '/__mock/given/corporateBalance'],
];

describe('a control body that is not a JSON object', () => {
  it.each(OBJECT_ROUTES)(
    '%s %s answers 400 VALIDATION_FAILED naming the body, and changes nothing',
    async (method, path) => {
      for (const text of NOT_OBJECTS) {
        const { mock, response } = raw(method, path, text);
        const before = JSON.stringify(mock.snapshot());
        const problem = await problemOf(response);
        expect({ text, status: problem.status, code: problem.code, paths: problem.errors?.map((e) => e.path) }).toEqual(
          {
            text,
            status: 400,
            code: 'VALIDATION_FAILED',
            paths: ['body'],
          },
        );
        expect(JSON.stringify(mock.snapshot())).toBe(before);
        expect(mock.overrides.list()).toEqual([]);
      }
    },
  );

  it.each(OBJECT_ROUTES)('%s %s answers invalid JSON with 400 MALFORMED_JSON', async (method, path) => {
    const problem = await problemOf(raw(method, path, '{"operationId":').response);
    expect([problem.status, problem.code]).toEqual([400, 'MALFORMED_JSON']);
  });

  it('POST /__mock/overrides without a body asks for one', async () => {
    const problem = await problemOf(raw('POST', '/__mock/overrides').response);
    expect([problem.status, problem.code, problem.errors]).toEqual([
      400,
      'VALIDATION_FAILED',
      [{ path: 'body', message: 'A JSON body is required' }],
    ]);
  });

  it('a builder without a body still takes its defaults; null is refused in-process as over HTTP', async () => {
    const { response } = raw('POST', '/__mock/given/user');
    expect((await response).status).toBe(201);
    const mock = createMock();
    expect(() => mock.given.user(null as never)).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED' }));
    expect(() => mock.given.businessUser(null as never)).toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED' }),
    );
  });
});
