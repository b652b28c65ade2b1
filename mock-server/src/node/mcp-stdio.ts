/**
 * `card-issuing-mock mcp --url URL`: the mock's MCP tools (mcp-tools.ts) over stdio, for MCP clients that only
 * start a command. Each tool sends its request to a running mock server at `URL` with the global fetch, signed with
 * the given credentials (default the mock's `test_key` / `test_secret`), so it acts on that tenant. stdout carries
 * MCP messages only; nothing else is written there.
 * @module
 */
import type { SecretEncoding } from 'card-issuing-sdk/server';
import { registerMockTools } from './mcp-tools.js';

/** What `card-issuing-mock mcp` takes. */
export interface McpStdioOptions {
  /** The running mock's URL, e.g. `http://127.0.0.1:4010`. */
  url: string;
  credentials: { apiKey: string; apiSecret: string };
  bodyHash?: boolean;
  secretEncoding?: SecretEncoding;
}

/** Serves the tools over this process's stdin and stdout; resolves once connected (the process lives until stdin closes). */
export async function serveMcpStdio(options: McpStdioOptions): Promise<void> {
  const [{ McpServer }, { StdioServerTransport }] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/mcp.js'),
    import('@modelcontextprotocol/sdk/server/stdio.js'),
  ]);
  const server = new McpServer({ name: 'card-issuing-mock', version: '0.1.0' });
  registerMockTools(server, {
    fetch: (request) => fetch(request),
    baseUrl: options.url.replace(/\/+$/, ''),
    credentials: options.credentials,
    ...(options.bodyHash !== undefined ? { bodyHash: options.bodyHash } : {}),
    ...(options.secretEncoding !== undefined ? { secretEncoding: options.secretEncoding } : {}),
    secrets: () => [options.credentials.apiSecret],
  });
  await server.connect(new StdioServerTransport());
}
