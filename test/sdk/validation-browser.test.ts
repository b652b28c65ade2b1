/**
 * Validation where there is no Node (a browser): the client checks with the code zod's compiler wrote when the schemas
 * were generated, and loads zod only when a check refuses. The same calls, with the same answers from the same fetch,
 * end the same way in a browser-like context (a V8 context with web globals only, the SDK bundled for the browser)
 * as on Node (zod's compile/validate): a valid call passes, a bad argument and a bad response give the same errors,
 * with zod's English messages.
 */
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { createCardIssuingClient } from 'card-issuing-sdk';
import { bundlePageScript } from '../helpers/chromium';
import { repoPath, specExample } from '../helpers/spec';

const USER_ID = '3f0b7c52-9d0e-4c6a-9a55-1e2f7b8c9d01';
const { example: user } = specExample('GET', `/s2s/users/${USER_ID}`);
const broken = { ...(user as object), email: 5, requiredConsents: [{ id: 'x' }] };

/** The scenario, as source: run with `createCardIssuingClient` and a fetch that answers from `bodies`. */
const SCENARIO = `async (createCardIssuingClient, bodies) => {
  let sent = 0;
  const fetch = async () => new Response(JSON.stringify(bodies[sent++]), { status: 200, headers: { 'content-type': 'application/json' } });
  const client = createCardIssuingClient({ baseUrl: 'https://x.test', apiKey: 'k', apiSecret: 's', retry: false, fetch });
  const outcomes = [];
  for (const id of [${JSON.stringify(USER_ID)}, 'not-a-uuid', ${JSON.stringify(USER_ID)}, ${JSON.stringify(USER_ID)}]) {
    try {
      const body = await client.s2s.users.get(id);
      outcomes.push({ ok: body.id });
    } catch (error) {
      outcomes.push({ name: error.name, code: error.code, errors: error.errors });
    }
  }
  return { outcomes, sent };
}`;
type Scenario = (
  create: typeof createCardIssuingClient,
  bodies: unknown[],
) => Promise<{ outcomes: unknown[]; sent: number }>;

describe('validation without Node: compiled checks, zod on a refusal', () => {
  it('gives the answers it gives on Node', async () => {
    const bodies = [user, broken, user];
    const onNode = await (new Function(`return ${SCENARIO}`)() as Scenario)(createCardIssuingClient, bodies);
    expect(onNode.sent).toBe(3);
    expect(onNode.outcomes[0]).toEqual({ ok: USER_ID });
    expect(onNode.outcomes[1]).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(onNode.outcomes[2]).toMatchObject({ name: 'ResponseValidationError' });
    expect(onNode.outcomes[3]).toEqual({ ok: USER_ID });

    const script = await bundlePageScript(
      `import { createCardIssuingClient } from ${JSON.stringify(repoPath('sdk/src/index.ts'))};
        (globalThis as any).run = (bodies: unknown[]) => (${SCENARIO})(createCardIssuingClient, bodies);`,
    );
    const context = vm.createContext({
      TextEncoder,
      TextDecoder,
      URL,
      Headers,
      Request,
      Response,
      AbortController,
      AbortSignal,
      setTimeout,
      clearTimeout,
      btoa,
      atob,
      ReadableStream,
      crypto: globalThis.crypto,
      performance,
    });
    Object.assign(context, { globalThis: context, window: context, self: context });
    vm.runInContext(script, context);
    expect(vm.runInContext('typeof process', context)).toBe('undefined');
    const inBrowser = await (context.run as (bodies: unknown[]) => Promise<unknown>)(bodies);
    // Through JSON: objects made in the other context have another Object.prototype.
    expect(JSON.parse(JSON.stringify(inBrowser))).toEqual(JSON.parse(JSON.stringify(onNode)));
  });
});
