/**
 * The secret's encoding end to end (issue 18): the mock as a real node:http server that base64-decodes its secrets
 * (`secretEncoding: 'base64'`, CLI `--secret-encoding base64`), the SDK signing either way, and the hint a mismatch
 * gives when the other encoding is worth trying. The openssl vectors of both encodings are checked in signing.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createMock } from '../../../mock-server/src/index';
import { startMockServer, type MockServer } from '../../../mock-server/src/node';
import { AuthenticationError, NotFoundError, createCardIssuingClient } from '../../../sdk/src/index';
import { runCli, type CliProcess } from '../../server/helpers';

const USER_ID = '3f0b7c52-9d0e-4c6a-9a55-1e2f7b8c9d01';
// 32 random bytes in base64, as `openssl rand -base64 32` makes them (the key bytes are no UTF-8 text).
const B64_SECRET = 'q3+7Jf0mPz/9vL2kXyQ8sW1nR4tU6hE0aG5bC7dI9oM=';

let server: MockServer | undefined;
let cli: CliProcess | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  if (cli) {
    cli.child.kill('SIGTERM');
    await cli.exited;
    cli = undefined;
  }
});

const outcome = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (e: unknown) => e,
  );

describe('a server that base64-decodes the secret (the mock with secretEncoding base64)', () => {
  it("accepts a client signing with secretEncoding 'base64' and refuses utf8 with a hint naming base64", async () => {
    server = await startMockServer({ port: 0, apiKey: 'b64_key', apiSecret: B64_SECRET, secretEncoding: 'base64' });
    const base64 = createCardIssuingClient({
      baseUrl: server.url,
      apiKey: 'b64_key',
      apiSecret: B64_SECRET,
      secretEncoding: 'base64',
      retry: false,
    });
    // A 404 NOT_FOUND comes after the signature held.
    expect(await outcome(base64.s2s.users.get(USER_ID))).toBeInstanceOf(NotFoundError);

    const utf8 = createCardIssuingClient({
      baseUrl: server.url,
      apiKey: 'b64_key',
      apiSecret: B64_SECRET,
      retry: false,
      logLevel: 'off',
    });
    const error = (await outcome(utf8.s2s.users.get(USER_ID))) as AuthenticationError;
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.code).toBe('AUTH_SIGNATURE_MISMATCH');
    expect(error.detail).toMatch(/reads as base64: if the service decodes it to sign .*secretEncoding: 'base64'/);
    expect(`${error.message} ${JSON.stringify(error)}`).not.toContain(B64_SECRET);
  });

  it("says to try 'utf8' when a base64-decoding client meets a server that signs with the characters", async () => {
    server = await startMockServer({ port: 0, apiKey: 'b64_key', apiSecret: B64_SECRET });
    const base64 = createCardIssuingClient({
      baseUrl: server.url,
      apiKey: 'b64_key',
      apiSecret: B64_SECRET,
      secretEncoding: 'base64',
      retry: false,
    });
    const error = (await outcome(base64.s2s.users.get(USER_ID))) as AuthenticationError;
    expect(error.code).toBe('AUTH_SIGNATURE_MISMATCH');
    expect(error.detail).toMatch(/pass secretEncoding: 'utf8'/);
  });

  it('gives no encoding hint where the strings differ, nor for a secret that does not read as base64', async () => {
    server = await startMockServer({ port: 0, apiKey: 'k', apiSecret: 'plain secret' });
    const client = createCardIssuingClient({
      baseUrl: server.url,
      apiKey: 'k',
      apiSecret: 'another plain secret',
      retry: false,
    });
    const error = (await outcome(client.s2s.users.get(USER_ID))) as AuthenticationError;
    expect(error.code).toBe('AUTH_SIGNATURE_MISMATCH');
    expect(error.detail).not.toMatch(/secretEncoding/);
  });

  it('refuses, up front, a base64 mock with a secret that is no base64', () => {
    expect(() => createMock({ secretEncoding: 'base64' })).toThrow(
      /every api secret must be base64; the secret of api key test_key is not/,
    );
    expect(() => createMock({ secretEncoding: 'latin1' as never })).toThrow(
      /secretEncoding must be 'utf8' or 'base64'/,
    );
  });
});

describe('the CLI: --secret-encoding', () => {
  it('base64: the default secret becomes dGVzdF9zZWNyZXQ= and a base64 client is accepted', async () => {
    cli = runCli(['--port', '0', '--secret-encoding', 'base64']);
    const url = (await cli.waitFor(/listening on (http:\/\/\S+)/))[1]!;
    expect(cli.stdout).toMatch(/apiSecret dGVzdF9zZWNyZXQ= \(the default under --secret-encoding base64\)/);
    expect(cli.stdout).toMatch(/secret base64-decoded: --secret-encoding base64/);
    const client = createCardIssuingClient({
      baseUrl: url,
      apiKey: 'test_key',
      apiSecret: 'dGVzdF9zZWNyZXQ=',
      secretEncoding: 'base64',
      retry: false,
    });
    expect(await outcome(client.s2s.users.get(USER_ID))).toBeInstanceOf(NotFoundError);
  });

  it('refuses another encoding, and a secret that is no base64, with a readable message', async () => {
    const bad = runCli(['--secret-encoding', 'latin1']);
    expect((await bad.exited).code).toBe(2);
    expect(bad.stderr).toMatch(/--secret-encoding is utf8 or base64 \(got "latin1"\)/);
    const notBase64 = runCli(['--secret-encoding', 'base64', '--api-key', 'k', '--api-secret', 'not base64!']);
    expect((await notBase64.exited).code).toBe(2);
    expect(notBase64.stderr).toMatch(/needs a base64 --api-secret/);
  });

  // One test decides what base64 is: a secret the SDK can sign with is one the mock and its CLI take, and no other.
  it.each([
    ['unpadded', 'dGVzdF9zZWNyZXQ', true],
    ['4n+1 characters', 'abcde', false],
    ['base64url alphabet', 'dGVzdF9zZWNyZXQ-_w', false],
  ])('agrees with the SDK on a %s secret', async (_, secret, accepted) => {
    const sdk = () =>
      createCardIssuingClient({
        baseUrl: 'http://127.0.0.1:1',
        apiKey: 'k',
        apiSecret: secret,
        secretEncoding: 'base64',
      });
    const mock = () => createMock({ secretEncoding: 'base64', credentials: [{ apiKey: 'k', apiSecret: secret }] });
    const run = runCli(['--port', '0', '--secret-encoding', 'base64', '--api-key', 'k', '--api-secret', secret]);
    cli = run;
    if (accepted) {
      expect(sdk).not.toThrow();
      expect(mock).not.toThrow();
      await run.waitFor(/listening on/);
    } else {
      expect(sdk).toThrow(/apiSecret is not base64/);
      expect(mock).toThrow(/every api secret must be base64/);
      expect((await run.exited).code).toBe(2);
      expect(run.stderr).toMatch(/needs a base64 --api-secret/);
    }
  });
});
