/**
 * The mock's MCP server (issue 23, item 6), driven by the MCP SDK's own client: over Streamable HTTP at
 * `/__mock/mcp` of the standalone server (behind its Host and Origin guard, with the control routes' tenant rules),
 * and over stdio through the built `card-issuing-mock mcp --url URL`. The client lists the tools and drives a
 * business user's approval to DELIVERED with today's actions (the API through `call_api`, the user's registration,
 * the clock), a purchase over the budget declined, and the journal showing it; no tool's output holds a secret.
 */
import { request as httpRequest } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from 'card-issuing-mock/node';
import { codeBlockOf } from '../helpers/markdown';
import { repoPath } from '../helpers/spec';
import { builtCli, signedFetch } from './helpers';

/** docs/mock-server.md's MCP client configuration, whose two entries the tests below connect with. */
const config = JSON.parse(codeBlockOf(repoPath('docs/mock-server.md'), 'For coding agents: MCP', 'json')) as {
  mcpServers: Record<string, { type?: string; url?: string; command?: string; args?: string[] }>;
};
/** A documented URL of the default port, pointed at the test's server. */
const here = (url: string) => url.replace('http://127.0.0.1:4010', server.url);

const SECRETS = ['test_secret', 'second_secret_value'];

let server: MockServer;
let client: Client;
/** Every text a tool answered in this file (checked for secrets at the end). */
const outputs: string[] = [];

/** Calls a tool; its result parsed (`{ status, body }`), the text kept for the secrets check. */
async function call(name: string, args: Record<string, unknown> = {}, on: Client = client) {
  const result = await on.callTool({ name, arguments: args });
  const text = (result.content as { type: string; text: string }[])[0]!.text;
  outputs.push(text);
  // biome-ignore lint/suspicious/noExplicitAny: parsed JSON; the tests assert its fields.
  return { ...(JSON.parse(text) as { status: number; body: any }), isError: result.isError === true };
}

/** A POST with a Host of the test's choosing (fetch would send the URL's). */
function rawPost(path: string, host: string, body: string): Promise<{ status: number; code: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: server.port,
        method: 'POST',
        path,
        headers: { host, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        setHost: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, code: JSON.parse(Buffer.concat(chunks).toString('utf8')).code }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

beforeAll(async () => {
  server = await startMockServer({ port: 0 });
  server.mock.addCredentials({ apiKey: 'second', apiSecret: 'second_secret_value' });
  client = new Client({ name: 'mcp-test', version: '1.0.0' });
  const http = config.mcpServers['card-issuing-mock']!;
  expect(http.type).toBe('http');
  await client.connect(new StreamableHTTPClientTransport(new URL(here(http.url!))));
});
afterAll(async () => {
  await client?.close();
  await server?.close();
});

describe('/__mock/mcp (Streamable HTTP)', () => {
  it('lists one tool per row of the table: builders, scenarios, overrides, faults, clock, actions, purchases, journal', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const name of [
      'call_api',
      'given',
      'load_scenario',
      'override',
      'list_overrides',
      'inject_fault',
      'list_faults',
      'clear_faults',
      'advance_clock',
      'fixtures',
      'kyc',
      'complete_registration',
      'approval_action',
      'purchase',
      'list_purchases',
      'journal',
      'events',
    ])
      expect(names).toContain(name);
    const purchase = tools.find((t) => t.name === 'purchase')!;
    expect(purchase.inputSchema.required).toEqual(expect.arrayContaining(['cardId', 'amount', 'currency', 'merchant']));
    expect(tools.find((t) => t.name === 'journal')!.annotations?.readOnlyHint).toBe(true);
  });

  it('drives an approval to DELIVERED, declines a purchase over its budget, and the journal shows it', async () => {
    const { body: fixtures } = await call('fixtures');
    const corporateUuid = fixtures.corporates[0].corporateUuid as string;
    const { body: user } = await call('call_api', {
      operationId: 'createBusinessUser',
      body: { name: 'Grace', lastName: 'Hopper', email: 'grace.mcp@example.org', phone: '+12025550143' },
    });
    const { body: now } = await call('get_clock');
    const created = await call('call_api', {
      operationId: 'createApproval',
      path: { corporateUuid },
      body: {
        userUuid: user.userUuid,
        budget: { amount: 10_000, currency: 'EUR' },
        validFrom: now.now,
        validTo: new Date(Date.parse(now.now) + 30 * 86_400_000).toISOString(),
      },
    });
    expect(created.status).toBe(201);
    const { approvalUuid, card } = created.body;
    await call('complete_registration', { userUuid: user.userUuid });
    await call('advance_clock', { seconds: 60 });
    const approval = await call('call_api', { operationId: 'getApproval', path: { corporateUuid, approvalUuid } });
    expect(approval.body.status).toBe('DELIVERED');

    const declined = await call('purchase', { cardId: card.id, amount: 20_000, currency: 'EUR', merchant: 'Hotel' });
    expect(declined).toMatchObject({ status: 201, body: { status: 'DECLINED', declineReason: 'BUDGET_EXCEEDED' } });
    const approved = await call('purchase', { cardId: card.id, amount: 2_500, currency: 'EUR', merchant: 'Cafe' });
    expect(approved.body.status).toBe('APPROVED');

    const journal = await call('journal', { operation: 'mock.cards.authorize', limit: 5 });
    expect(journal.body.items.map((e: { response: { body: { status: string } } }) => e.response.body.status)).toEqual([
      'APPROVED',
      'DECLINED',
    ]);
    const events = await call('events', { type: 'approval.' });
    expect(events.body.items.map((e: { to?: string }) => e.to)).toContain('DELIVERED');
    // The tools acted on the default tenant, as the control routes do for an unsigned request.
    expect(server.mock.requests({ operation: 'createApproval' })).toHaveLength(1);
  });

  it('overrides and faults through the tools agree with the mock; errors are the problem, marked isError', async () => {
    const set = await call('override', { operationId: 'listTopUps', status: 503 });
    expect(set.status).toBe(201);
    expect(server.mock.overrides.list().map((o) => o.id)).toEqual([set.body.id]);
    expect((await call('list_overrides')).body.items).toHaveLength(1);
    await call('clear_overrides');
    expect(server.mock.overrides.list()).toEqual([]);
    const bad = await call('override', { operationId: 'getUser', status: 200, body: { id: 'x' } });
    expect(bad).toMatchObject({ isError: true, status: 400, body: { code: 'VALIDATION_FAILED' } });
    await call('inject_fault', { operationId: 'getUser', status: 503, retryAfter: 2 });
    expect((await call('list_faults')).body.items).toMatchObject([{ code: 'SERVICE_UNAVAILABLE', retryAfter: 2 }]);
    await call('clear_faults');
  });

  it('builds a DELIVERED approval with one builder call, declines a purchase over its budget, and shows it in the journal', async () => {
    const built = await call('given', {
      kind: 'approval',
      options: { status: 'DELIVERED', budget: { amount: 10_000, currency: 'EUR' } },
    });
    expect(built.status).toBeLessThan(300);
    const { corporateUuid, approval: made, card } = built.body;
    const { approvalUuid } = made;
    const approval = await call('call_api', { operationId: 'getApproval', path: { corporateUuid, approvalUuid } });
    expect(approval.body.status).toBe('DELIVERED');
    const declined = await call('purchase', { cardId: card.id, amount: 20_000, currency: 'EUR', merchant: 'Hotel' });
    expect(declined.body).toMatchObject({ status: 'DECLINED', declineReason: 'BUDGET_EXCEEDED' });
    const journal = await call('journal', { operation: 'mock.cards.authorize', limit: 1 });
    expect(journal.body.items[0].response.body.declineReason).toBe('BUDGET_EXCEEDED');
  });

  it('is behind the Host and Origin guard, and follows the tenant rules of the control routes', async () => {
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    };
    const headers = { accept: 'application/json, text/event-stream' };
    const foreign = await signedFetch(server.url, 'POST', '/__mock/mcp', {
      credentials: null,
      body: initialize,
      headers: { ...headers, origin: 'https://evil.example' },
    });
    expect(foreign).toMatchObject({ status: 403, body: { code: 'ORIGIN_NOT_ALLOWED' } });
    const rebound = await rawPost('/__mock/mcp', 'rebind.evil.example', JSON.stringify(initialize));
    expect(rebound).toMatchObject({ status: 403, code: 'HOST_NOT_ALLOWED' });
    const unsignedOther = await signedFetch(server.url, 'POST', '/__mock/mcp?apiKey=second', {
      credentials: null,
      body: initialize,
      headers,
    });
    expect(unsignedOther).toMatchObject({ status: 401, body: { code: 'AUTH_MISSING' } });

    // Signed with the other tenant's key, every request of the session (as any control request for it is).
    const second = new Client({ name: 'mcp-test-second', version: '1.0.0' });
    await second.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/__mock/mcp`), {
        fetch: async (input, init) => {
          const request = new Request(input, init);
          const body = request.body ? new Uint8Array(await request.clone().arrayBuffer()) : undefined;
          const { signRequest } = await import('card-issuing-sdk');
          const signed = await signRequest({
            method: request.method,
            url: request.url,
            body,
            apiKey: 'second',
            apiSecret: 'second_secret_value',
          });
          request.headers.set('authorization', signed.authorization);
          return fetch(request);
        },
      }),
    );
    await call('inject_fault', { operationId: 'listTopUps', status: 500 }, second);
    expect(server.mock.tenant('second').faults.list()).toHaveLength(1);
    expect(server.mock.faults.list()).toEqual([]);
    await second.close();
  });
});

describe('card-issuing-mock mcp --url (stdio)', () => {
  it('serves the same tools over stdio against the running server', async () => {
    const stdio = new Client({ name: 'mcp-stdio-test', version: '1.0.0' });
    // The documented command, `npx card-issuing-mock ...`, as the built CLI.
    const { command, args } = config.mcpServers['card-issuing-mock-stdio']!;
    expect([command, args![0]]).toEqual(['npx', 'card-issuing-mock']);
    await stdio.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [builtCli(), ...args!.slice(1).map(here)],
        stderr: 'pipe',
      }),
    );
    try {
      const { tools } = await stdio.listTools();
      expect(tools.map((t) => t.name)).toEqual((await client.listTools()).tools.map((t) => t.name));
      const fixtures = await call('fixtures', {}, stdio);
      expect(fixtures.body.corporates.length).toBeGreaterThan(0);
      const user = await call(
        'call_api',
        {
          operationId: 'createUser',
          body: {
            email: 'ada.stdio@example.org',
            firstName: 'Ada',
            lastName: 'Lovelace',
            phone: '+447700900123',
            dateOfBirth: '1990-12-10',
            country: 'GB',
          },
        },
        stdio,
      );
      expect(user.status).toBe(201);
      await call('kyc', { userId: user.body.id, status: 'PASSED' }, stdio);
      expect(server.mock.events({ type: 'kyc.changed' }).at(-1)).toMatchObject({ userId: user.body.id });
    } finally {
      await stdio.close();
    }
  });
});

describe('no secret', () => {
  it("is in any tool's output: no api secret, no signature, no card number", async () => {
    // A secret where a tool would echo it: the override as kept, and the journal's copy of the request.
    await call('override', { operationId: 'listTopUps', status: 200, body: { note: SECRETS[0] }, unchecked: true });
    // Read everything the tools can read, after all the tests above.
    for (const name of ['fixtures', 'journal', 'events', 'list_purchases', 'outbox', 'list_faults', 'list_overrides'])
      await call(name, name === 'journal' ? { limit: 500 } : {});
    expect(outputs.length).toBeGreaterThan(20);
    for (const text of outputs) {
      for (const secret of SECRETS) expect(text).not.toContain(secret);
      expect(text).not.toMatch(/HMAC-SHA256 \S+:\S+:[0-9a-f]{64}/);
      expect(text).not.toMatch(/(?<!\d)\d{16}(?!\d)/);
    }
    expect(outputs.filter((text) => text.includes('"note": "[redacted]"')).length).toBeGreaterThanOrEqual(2);
    await call('clear_overrides');
  });
});
