/**
 * The mock's MCP tools, for coding agents: one table of tools, each an HTTP request of the control API (`/__mock/...`)
 * or of the API itself, run by one executor that signs it with the tenant's key and returns the answer as JSON text
 * with secrets redacted (api secrets, card numbers, secret members: observe/redact.ts, as the journal shows bodies).
 * The same tools serve the Streamable HTTP endpoint of the standalone server (`/__mock/mcp`, mcp-endpoint.ts) and
 * `card-issuing-mock mcp --url URL` over stdio (mcp-stdio.ts); only the `fetch` they send with differs.
 * @module
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { signRequest } from 'card-issuing-sdk';
import { operationTable, type SecretEncoding } from 'card-issuing-sdk/server';
import {
  zAuthorizationFilter,
  zAuthorizeBody,
  zClockAdvanceBody,
  zFaultBody,
  zIncomingDepositBody,
  zKycBody,
  zRequestChangeBody,
} from '../control/schemas';
import { redactBody } from '../observe/redact';
import { zOverrideBody } from '../pipeline/overrides';

/** Where the tools send their requests, and as whom. */
export interface McpTarget {
  /** Sends one request (the global fetch over stdio; the pipeline itself on the standalone server). */
  fetch(request: Request): Promise<Response>;
  /** The mock's origin, e.g. `http://127.0.0.1:4010`. */
  baseUrl: string;
  /** The URL requests are signed for (the server's `publicUrl` behind a proxy); default `baseUrl`. */
  signingUrl?: string;
  /** The tenant's credentials: every request is signed with them, so it acts on that tenant. */
  credentials: { apiKey: string; apiSecret: string };
  bodyHash?: boolean;
  secretEncoding?: SecretEncoding;
  /** Strings no tool output may hold (the api secrets the mock knows). */
  secrets(): readonly string[];
}

/** One HTTP request a tool makes. */
interface ToolRequest {
  method: 'GET' | 'POST' | 'DELETE';
  /** The path, without query. */
  path: string;
  query?: Record<string, unknown>;
  body?: unknown;
  headers?: Record<string, string>;
}

type Args = Record<string, unknown>;

/** One tool: its name, what it does, its arguments, and the request it makes of them. */
interface Tool {
  name: string;
  description: string;
  input: z.ZodRawShape;
  readOnly?: boolean;
  request(args: Args): ToolRequest;
}

/**
 * A tool that is one control route: `{name}` segments of `path` come from the arguments of the same name; the other
 * arguments are the query of a GET or DELETE, the JSON body of a POST (or only the argument `bodyFrom`).
 */
function route(
  name: string,
  method: ToolRequest['method'],
  path: string,
  description: string,
  input: z.ZodRawShape = {},
  bodyFrom?: string,
): Tool {
  return {
    name,
    description: `${description} (${method} ${path})`,
    input,
    readOnly: method === 'GET',
    request(args) {
      const rest: Args = { ...args };
      const filled = path.replace(/\{(\w+)\}/g, (_, param: string) => {
        const value = rest[param];
        delete rest[param];
        return encodeURIComponent(String(value));
      });
      if (method !== 'POST') return { method, path: filled, query: rest };
      const body = bodyFrom === undefined ? rest : (rest[bodyFrom] ?? {});
      return { method, path: filled, body: Object.keys(body as object).length > 0 ? body : undefined };
    },
  };
}

const uuid = z.uuid();
const OPERATION_IDS = operationTable.map((o) => o.operationId) as [string, ...string[]];
const operations = new Map<string, (typeof operationTable)[number]>(operationTable.map((o) => [o.operationId, o]));
const jsonObject = z.record(z.string(), z.unknown());

/** Every tool, in the order `tools/list` gives them. */
export const MCP_TOOLS: readonly Tool[] = [
  {
    name: 'call_api',
    description:
      "Calls an operation of the card-issuing API as the tenant's application (signed with its key): the spec's operationId, its path parameters, query and JSON body. Answers the API's status and body.",
    input: {
      operationId: z.enum(OPERATION_IDS),
      path: z.record(z.string(), z.string()).optional().describe('Path parameters by name, e.g. {"userId": "..."}'),
      query: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
      body: z.unknown().optional().describe('The JSON body of a POST'),
      idempotencyKey: z.string().min(1).max(255).optional(),
    },
    request(args) {
      const operation = operations.get(args.operationId as string)!;
      const params = (args.path ?? {}) as Record<string, string>;
      const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
      const headers: Record<string, string> = {};
      if (args.idempotencyKey !== undefined) headers['idempotency-key'] = String(args.idempotencyKey);
      return {
        method: operation.method,
        path,
        query: (args.query ?? {}) as Args,
        body: operation.method === 'POST' ? (args.body ?? {}) : undefined,
        headers,
      };
    },
  },
  route(
    'given',
    'POST',
    '/__mock/given/{kind}',
    'Builds a state in one call through the domain\'s own transitions (a builder: e.g. kind "approval" with options {"status": "DELIVERED"}); answers the records it made',
    { kind: z.string().regex(/^[a-zA-Z][\w-]{0,40}$/), options: jsonObject.optional() },
    'options',
  ),
  route(
    'load_scenario',
    'POST',
    '/__mock/scenario',
    'Loads a scenario (builders in order, a later entry naming an earlier one): refused whole, with every error, when wrong',
    { scenario: jsonObject },
    'scenario',
  ),
  route(
    'override',
    'POST',
    '/__mock/overrides',
    'Answers an operation with a given status, body and headers instead of the mock (every request, or the next `times`); the body is checked against the spec unless unchecked',
    zOverrideBody.shape,
  ),
  route('list_overrides', 'GET', '/__mock/overrides', 'The overrides, oldest first'),
  route('remove_override', 'DELETE', '/__mock/overrides/{id}', 'Removes one override', { id: z.string() }),
  route('clear_overrides', 'DELETE', '/__mock/overrides', 'Removes every override'),
  route(
    'inject_fault',
    'POST',
    '/__mock/faults',
    "Makes the next `times` requests of an operation (or method and path) fail with a status and a code (default: the status's own, INJECTED_FAULT where the spec has several), a Retry-After, a delay, or a dropped connection (status 0)",
    zFaultBody.shape,
  ),
  route('list_faults', 'GET', '/__mock/faults', 'The faults waiting, in the order they are tried'),
  route('remove_fault', 'DELETE', '/__mock/faults/{id}', 'Removes one fault', { id: z.string() }),
  route('clear_faults', 'DELETE', '/__mock/faults', 'Removes every fault'),
  route('get_clock', 'GET', '/__mock/clock', "The tenant's virtual clock"),
  route(
    'advance_clock',
    'POST',
    '/__mock/clock/advance',
    'Moves the virtual clock forward; every transition that comes due runs (orders complete, approvals start and expire)',
    zClockAdvanceBody.shape,
  ),
  route('reset', 'POST', '/__mock/reset', "Back to the tenant's seeded state, without faults or overrides"),
  route(
    'fixtures',
    'GET',
    '/__mock/fixtures',
    'The seeded ids: corporates and their balances, card configs, deposit types',
  ),
  route('kyc', 'POST', '/__mock/kyc/{userId}', "The KYC provider's answer for a Server2Server user", {
    userId: uuid,
    ...zKycBody.shape,
  }),
  route(
    'complete_registration',
    'POST',
    '/__mock/users/{userUuid}/complete-registration',
    'A business user finishes registration: their ACCEPTED approvals move on',
    { userUuid: uuid },
  ),
  route(
    'approval_action',
    'POST',
    '/__mock/corporates/{corporateUuid}/approvals/{approvalUuid}/{action}',
    'What the corporation does to an approval (cancel, reject, accept a change) or the user (request-change, with additionalBudget or pinUpdate)',
    {
      corporateUuid: uuid,
      approvalUuid: uuid,
      action: z.enum(['cancel', 'reject', 'request-change', 'accept']),
      ...zRequestChangeBody.shape,
    },
  ),
  route('lock_card', 'POST', '/__mock/cards/{cardId}/{action}', 'Locks or unlocks a card', {
    cardId: uuid,
    action: z.enum(['lock', 'unlock']),
  }),
  route(
    'incoming_deposit',
    'POST',
    '/__mock/deposits/incoming',
    "A crypto deposit arrives at a user's balance (a verification) or a corporate's (a top-up)",
    zIncomingDepositBody.shape,
  ),
  route('outbox', 'GET', '/__mock/outbox', 'The messages sent to users (the e-mail codes), newest last', {
    userId: uuid.optional(),
  }),
  route(
    'purchase',
    'POST',
    '/__mock/cards/{cardId}/authorize',
    'A purchase with a card: APPROVED within the remaining budget or balance, else DECLINED with a reason (BUDGET_EXCEEDED, ...)',
    { cardId: uuid, ...zAuthorizeBody.shape },
  ),
  route(
    'list_purchases',
    'GET',
    '/__mock/authorizations',
    'The purchases (authorizations), oldest first, with their amounts and steps',
    zAuthorizationFilter.shape,
  ),
  route(
    'purchase_step',
    'POST',
    '/__mock/authorizations/{id}/{action}',
    'A step in the life of a held purchase: capture, increment, reverse or refund (amount in minor units)',
    { id: uuid, action: z.enum(['capture', 'increment', 'reverse', 'refund']), amount: z.int().min(1).optional() },
  ),
  route(
    'journal',
    'GET',
    '/__mock/requests',
    'What the mock answered, newest first (bodies redacted): filter by operation, status (409 or 4xx), code, requestId, method, overridden',
    {
      operation: z.string().optional(),
      status: z.string().optional(),
      code: z.string().optional(),
      requestId: z.string().optional(),
      method: z.string().optional(),
      overridden: z.string().optional().describe('true, false or an override id'),
      after: z.int().min(0).optional(),
      limit: z.int().min(1).max(500).optional(),
    },
  ),
  route(
    'events',
    'GET',
    '/__mock/events',
    'What changed, oldest first: users registered, cards generated, approval statuses, purchases, clock moves (type: one, a list or a prefix)',
    {
      type: z.string().optional(),
      id: z.string().optional(),
      requestId: z.string().optional(),
      after: z.int().min(0).optional(),
      limit: z.int().min(1).max(1000).optional(),
    },
  ),
];

/** Registers every tool of {@link MCP_TOOLS} on `server`, each sending its request to `target`. */
export function registerMockTools(server: McpServer, target: McpTarget): void {
  for (const tool of MCP_TOOLS) {
    server.registerTool(
      tool.name,
      {
        description: tool.description,
        inputSchema: tool.input,
        annotations: { readOnlyHint: tool.readOnly ?? false, openWorldHint: false },
      },
      (args: Args) => perform(target, tool.request(args)),
    );
  }
}

/** Sends a tool's request, signed, and answers its status and (redacted) body as JSON text. */
async function perform(target: McpTarget, request: ToolRequest): Promise<CallToolResult> {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(request.query ?? {}))
    if (value !== undefined && value !== null) params.set(name, String(value));
  const pathAndQuery = params.size > 0 ? `${request.path}?${params}` : request.path;
  const body = request.body === undefined ? undefined : JSON.stringify(request.body);
  const signed = await signRequest({
    method: request.method,
    url: (target.signingUrl ?? target.baseUrl) + pathAndQuery,
    body,
    apiKey: target.credentials.apiKey,
    apiSecret: target.credentials.apiSecret,
    bodyHash: target.bodyHash ?? false,
    secretEncoding: target.secretEncoding ?? 'utf8',
  });
  const headers: Record<string, string> = {
    accept: 'application/json',
    authorization: signed.authorization,
    ...request.headers,
  };
  if (body !== undefined) headers['content-type'] = 'application/json';
  let status: number;
  let text: string;
  try {
    const response = await target.fetch(
      new Request(target.baseUrl + pathAndQuery, { method: request.method, headers, body: body ?? null }),
    );
    status = response.status;
    text = await response.text();
  } catch (error) {
    return answer({ error: `The mock could not be reached: ${(error as Error).message}` }, target, true);
  }
  return answer({ status, body: text }, target, status >= 400);
}

/** A tool's result: JSON text, secrets redacted (a body is parsed, secret members replaced, card numbers masked). */
function answer(result: { status?: number; body?: string; error?: string }, target: McpTarget, isError: boolean) {
  const secrets = [...target.secrets(), target.credentials.apiSecret];
  const shown =
    result.body === undefined
      ? { error: redactBody(result.error ?? '', secrets) }
      : { status: result.status, body: redactBody(result.body, secrets) };
  return { content: [{ type: 'text' as const, text: JSON.stringify(shown, null, 2) }], isError };
}
