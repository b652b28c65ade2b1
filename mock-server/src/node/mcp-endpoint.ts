/**
 * `/__mock/mcp`: the mock's MCP tools (mcp-tools.ts) over Streamable HTTP on the standalone server, stateless (a
 * server and transport per request, JSON answers). It sits behind the server's Host and Origin guard like every
 * route, and follows the control routes' tenant rules (pipeline/control-auth.ts): an unsigned request acts on the
 * default tenant, one for another tenant is signed with its key. The tools then send their requests to the mock's
 * own pipeline in-process, signed with that tenant's key, so they are checked, journaled and answered as any.
 * The MCP SDK is loaded on the first MCP request, so that a server no agent talks to never loads it.
 * @module
 */
import type { Pipeline } from '../pipeline/index.js';
import { controlApiKey } from '../pipeline/control-auth.js';
import { parseQuery } from '../pipeline/parse.js';
import { asProblem, problemReply, toResponse, type Reply } from '../pipeline/reply.js';
import { fromFetchRequest, type PipelineRequest } from '../pipeline/request.js';
import type { MockRuntime } from '../pipeline/runtime.js';
import { notFound } from '../domain/errors.js';
import { registerMockTools } from './mcp-tools.js';

/** The path of the MCP endpoint. */
export const MCP_PATH = '/__mock/mcp';

/** Headers of the transport that a fetch `Request` sets itself. */
const HOP_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

/** The pipeline with the MCP endpoint in front; every other request goes to `pipeline` untouched. */
export function withMcp(pipeline: Pipeline, inner: Pipeline, runtime: MockRuntime): Pipeline {
  return {
    // Not async: a request that is not the endpoint's gets the pipeline's own promise, no extra turn.
    handle(request) {
      if (request.pathname !== MCP_PATH) return pipeline.handle(request);
      return mcp(request, inner, runtime).then((reply) => ({ kind: 'reply', reply }));
    },
  };
}

async function mcp(request: PipelineRequest, inner: Pipeline, runtime: MockRuntime): Promise<Reply> {
  try {
    const apiKey = await controlApiKey(runtime, request, parseQuery(request.search).apiKey);
    const tenant = apiKey === null ? runtime.tenants.default : runtime.tenants.get(apiKey);
    if (!tenant) throw notFound('tenant with api key', apiKey ?? '');
    const [{ McpServer }, { WebStandardStreamableHTTPServerTransport }] = await Promise.all([
      import('@modelcontextprotocol/sdk/server/mcp.js'),
      import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'),
    ]);
    const server = new McpServer({ name: 'card-issuing-mock', version: '0.1.0' });
    const origin = originOf(request.url);
    registerMockTools(server, {
      fetch: pipelineFetch(inner),
      baseUrl: origin,
      signingUrl: runtime.publicUrl ?? origin,
      credentials: { apiKey: tenant.apiKey, apiSecret: tenant.apiSecret },
      bodyHash: runtime.bodyHash,
      secretEncoding: runtime.secretEncoding,
      secrets: () => runtime.tenants.all().map((t) => t.apiSecret),
    });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    try {
      const response = await transport.handleRequest(toFetchRequest(request));
      const headers: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        headers[name] = value;
      });
      return { status: response.status, headers, body: await response.text() };
    } finally {
      await server.close();
    }
  } catch (error) {
    return problemReply(asProblem(error), runtime.nextRequestId(), request.pathname);
  }
}

/** A `fetch` answered by the pipeline in-process (a dropped connection rejects, as fetch does). */
function pipelineFetch(pipeline: Pipeline): (request: Request) => Promise<Response> {
  return async (request) => {
    const outcome = await pipeline.handle(await fromFetchRequest(request));
    if (outcome.kind === 'network-error') throw new TypeError('fetch failed (an injected network fault)');
    if (outcome.kind === 'pass') return new Response(null, { status: 404 });
    return toResponse(outcome.reply);
  };
}

function toFetchRequest(request: PipelineRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers())) if (!HOP_HEADERS.has(name)) headers.set(name, value);
  const body = request.method === 'GET' || request.method === 'HEAD' ? null : (request.body ?? null);
  return new Request(request.url, { method: request.method, headers, body: body as BodyInit | null });
}

/** `http://host:port` of an absolute URL. */
function originOf(url: string): string {
  const schemeEnd = url.indexOf('://');
  const pathStart = url.indexOf('/', schemeEnd < 0 ? 0 : schemeEnd + 3);
  return pathStart < 0 ? url : url.slice(0, pathStart);
}
