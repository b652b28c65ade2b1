/**
 * `card-issuing-contract proxy`: a local proxy in front of a sandbox. It verifies the caller's signature (made for
 * the proxy's URL with the same credentials), signs the request again for the target so HMAC works through it,
 * passes the target's answer back unchanged, and checks both against the spec, recording each drift once.
 * @module
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signRequest } from 'card-issuing-sdk';
import { parse, stringify } from 'yaml';
import { createConformanceChecker, type ConformanceChecker, type Finding } from '../conformance/validator';
import { createRequestGuard, NonceCache, verifySignature } from 'card-issuing-sdk/server';
import type { SigningOptions } from '../suite/support/target';
import { classify, driftLine, DriftLog, type Drift, type DriftReport } from './drift';
import { buildOverlay } from './overlay';
import { markdownReport } from './markdown';
import { type AnswerLimits, DEFAULT_ANSWER_LIMITS, fetchBounded } from './answer';
import {
  discardRest,
  forwardedHeaders,
  isAnswerHopHeader,
  MAX_BODY_BYTES,
  precheckSignature,
  readBody,
  targetUrlOf,
} from './inbound';

export type { DriftReport } from './drift';

/** Options of {@link startProxy}. */
export interface ProxyOptions {
  /** The target's base URL (a sandbox of the service). */
  target: string;
  /** The credentials for the target; the caller signs for the proxy with the same ones. */
  credentials: { apiKey: string; apiSecret: string };
  signing: SigningOptions;
  port: number;
  host: string;
  /** The URL the caller uses when it is not `http://<Host header>` (a tunnel, another proxy); its host is allowed. */
  publicUrl?: string;
  /** More names the proxy may be reached by (`Host`), beyond its listen address and localhost. */
  allowedHosts?: readonly string[];
  /** Bounds on the target's answer (default 30 s, 8 MiB). */
  answerLimits?: AnswerLimits;
  /** Where to write the report on close: `<report>.json`, `<report>.md` and `<report>.overlay.yaml`. */
  reportPath?: string;
  specPath: string;
  log: (line: string) => void;
}

/** A running proxy. */
export interface RunningProxy {
  url: string;
  report(): DriftReport;
  /** Stops listening and writes the report files when a report path was given. */
  close(): Promise<void>;
}

function problem(res: ServerResponse, status: number, code: string, detail: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, {
    'content-type': 'application/problem+json',
    'x-request-id': `proxy_${crypto.randomUUID().slice(0, 16)}`,
  });
  res.end(
    JSON.stringify({ type: 'about:blank', title: 'Refused by card-issuing-contract proxy', status, code, detail }),
  );
}

/** Why the target may have refused our signature, most likely first. */
function likelyCauses(
  options: ProxyOptions,
  targetUrl: string,
  hasBody: boolean,
  code: string | undefined,
  signed: string,
  expected: string | undefined,
): string[] {
  if (code === 'AUTH_UNKNOWN_KEY') return ['the target does not know the api key'];
  if (code === 'AUTH_TIMESTAMP_SKEW') return ["this machine's clock is more than the allowed window from the target's"];
  const causes: string[] = [];
  const other = options.signing.secretEncoding === 'utf8' ? 'base64' : 'utf8';
  if (expected !== undefined && expected !== signed) {
    const ours = new URL(targetUrl);
    if (!expected.toLowerCase().includes(`${ours.protocol}//${ours.host}`.toLowerCase())) {
      causes.push(
        `host/port: the target signs a URL other than ${ours.protocol}//${ours.host} (it is behind a proxy or load balancer; see the target's stringToSign)`,
      );
    } else causes.push("the string to sign differs from the target's (see both)");
  }
  causes.push(
    `secret encoding: signed with the secret as ${options.signing.secretEncoding === 'utf8' ? 'UTF-8 bytes' : 'base64-decoded bytes'}; try --secret-encoding ${other}`,
  );
  if (hasBody)
    causes.push(
      options.signing.bodyHash
        ? 'body hash: the target may not cover the body; try without --sign-body'
        : 'body hash: the target may cover the body; try --sign-body',
    );
  if (expected === undefined)
    causes.push(
      `host/port: the target may see another host or port than ${new URL(targetUrl).host} (a proxy or load balancer in between)`,
    );
  return causes;
}

/** What the proxy's request handling shares for its whole life. */
interface ProxyState {
  options: ProxyOptions;
  checker: ConformanceChecker;
  nonces: NonceCache;
  targetBase: URL;
  guard: ReturnType<typeof createRequestGuard>;
  /** Records a drift, logging it the first time it is seen. */
  record(drift: Omit<Drift, 'count' | 'firstSeen'>): void;
  /** Counts an exchange observed. */
  observed(): void;
  report(): DriftReport;
}

/** One caller's request on its way through the proxy. */
interface Call {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  /** The request target as the caller sent it (path and query). */
  target: string;
  targetUrl: URL;
  /** The origin the caller signed for. */
  origin: string;
}

/** Refuses before the body is read: the connection closes once the answer is out, the rest is discarded. */
function refuseEarly(req: IncomingMessage, res: ServerResponse, status: number, code: string, detail: string): void {
  discardRest(req, res);
  problem(res, status, code, detail);
}

/** Refuses the caller's signature, before the body (`early`) or after it was read. */
function refuseSignature(state: ProxyState, call: Call, code: string, detail: string, early: boolean): void {
  state.options.log(
    `refused ${call.method} ${call.target}: ${code} (sign for ${call.origin} with the proxy's api key and secret)`,
  );
  if (early) refuseEarly(call.req, call.res, 401, code, detail);
  else problem(call.res, 401, code, detail);
}

/** Checks the caller's signature against the proxy's URL; the body only when signatures cover its hash. */
function verifyCaller(state: ProxyState, call: Call, body?: Buffer) {
  const { options } = state;
  return verifySignature({
    method: call.method,
    url: `${call.origin}${call.target}`,
    ...(body && body.length > 0 ? { body: new Uint8Array(body) } : {}),
    authorization: call.req.headers.authorization,
    getSecret: (key) => (key === options.credentials.apiKey ? options.credentials.apiSecret : undefined),
    nonces: state.nonces,
    bodyHash: options.signing.bodyHash,
    secretEncoding: options.signing.secretEncoding,
  });
}

/**
 * The signature before the body: the five-part signature does not cover it, so it is checked in full; with the
 * body hash, everything but the hash (form, key, timestamp) is. False when the caller was refused.
 */
async function signatureBeforeBody(state: ProxyState, call: Call): Promise<boolean> {
  const { options } = state;
  if (!options.signing.bodyHash) {
    const verdict = await verifyCaller(state, call);
    if (!verdict.ok) refuseSignature(state, call, verdict.code, verdict.detail, true);
    return verdict.ok;
  }
  const early = precheckSignature(call.req.headers.authorization, options.credentials.apiKey);
  if (early) refuseSignature(state, call, early.code, early.detail, true);
  return !early;
}

/** Reads the body and, with the body hash, the rest of the signature. Undefined when the caller was refused. */
async function readSignedBody(state: ProxyState, call: Call): Promise<Buffer | undefined> {
  const body = await readBody(call.req);
  if (body === 'too-large') {
    state.options.log(`refused ${call.method} ${call.target}: PAYLOAD_TOO_LARGE`);
    refuseEarly(
      call.req,
      call.res,
      413,
      'PAYLOAD_TOO_LARGE',
      `The request body is larger than ${MAX_BODY_BYTES} bytes.`,
    );
    return undefined;
  }
  if (state.options.signing.bodyHash) {
    const verdict = await verifyCaller(state, call, body);
    if (!verdict.ok) {
      refuseSignature(state, call, verdict.code, verdict.detail, false);
      return undefined;
    }
  }
  return body;
}

/** Passes the target's answer back unchanged but for hop-by-hop headers; cookies each as a header of its own. */
function writeAnswer(res: ServerResponse, response: Response, answer: Buffer): void {
  const out: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (!isAnswerHopHeader(name) && name !== 'set-cookie') out[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) out['set-cookie'] = cookies;
  res.writeHead(response.status, out);
  res.end(answer);
}

/** An exchange forwarded and answered, as the checks read it. */
interface Exchanged {
  call: Call;
  /** The API path and query on the target (its base path removed). */
  path: string;
  headers: Headers;
  body: Buffer;
  response: Response;
  text: string;
  /** The string the proxy signed for the target. */
  stringToSign: string;
}

/** Records each finding of the spec's checker as a drift. */
function recordFindings(state: ProxyState, exchange: Exchanged, findings: Finding[]): void {
  const { call, path, response } = exchange;
  const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]?.trim() || undefined;
  for (const finding of findings) {
    const { kind, subject, location } = classify(finding);
    state.record({
      kind,
      operationId: finding.operationId,
      method: finding.method,
      path: finding.path,
      location,
      ...(subject === undefined ? {} : { subject }),
      spec: finding.cause === undefined ? finding.message : `${finding.message} (${finding.cause})`,
      ...(finding.actual === undefined ? {} : { observed: finding.actual }),
      request: `${call.method} ${path}`,
      ...(finding.schemaPointer === undefined ? {} : { schemaPointer: finding.schemaPointer }),
      ...(kind === 'undocumented-status' && mediaType ? { mediaType } : {}),
    });
  }
}

/** A 401's `code` and `stringToSign`, when its body is JSON that has them. */
function refusalOf(text: string): { code?: string; expected?: string } {
  let parsed: { code?: unknown; stringToSign?: unknown } = {};
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch {
    // not JSON: no code to read
  }
  return {
    ...(typeof parsed.code === 'string' ? { code: parsed.code } : {}),
    ...(typeof parsed.stringToSign === 'string' ? { expected: parsed.stringToSign } : {}),
  };
}

/** Records the target's refusal of our signature, with both strings to sign and the likely causes. */
function recordSignatureRefusal(state: ProxyState, exchange: Exchanged, findings: Finding[]): void {
  const { call, path, body, stringToSign } = exchange;
  const { code, expected } = refusalOf(exchange.text);
  state.record({
    kind: 'signature-refused',
    operationId: state.checker.operationOf(call.method, path),
    method: call.method,
    path: findings[0]?.path ?? path.split('?')[0]!,
    location: 'request.headers.authorization',
    subject: code ?? '401',
    spec: 'the request is signed as the spec says (HMAC-SHA256 of apiKey + METHOD + url + timestamp + nonce)',
    observed: `401 ${code ?? ''}`.trim(),
    request: `${call.method} ${path}`,
    signing: {
      stringToSign,
      ...(expected === undefined ? {} : { serverStringToSign: expected }),
      likelyCauses: likelyCauses(state.options, call.targetUrl.href, body.length > 0, code, stringToSign, expected),
    },
  });
}

/** Checks an exchange against the spec and records what drifts. */
function observe(state: ProxyState, exchange: Exchanged): void {
  state.observed();
  const { call, path, headers, body, response, text } = exchange;
  const findings = state.checker.check({
    method: call.method,
    url: path,
    requestHeaders: Object.fromEntries(headers),
    requestBody: body.length > 0 ? body.toString('utf8') : undefined,
    status: response.status,
    responseHeaders: Object.fromEntries(response.headers),
    responseBody: text,
  });
  recordFindings(state, exchange, findings);
  if (response.status === 401) recordSignatureRefusal(state, exchange, findings);
}

/** Signs the request again for the target, forwards it, answers the caller and then checks the exchange. */
async function forward(state: ProxyState, call: Call, body: Buffer): Promise<void> {
  const { options, targetBase } = state;
  const { method, targetUrl } = call;
  const signed = await signRequest({
    method,
    url: targetUrl.href,
    ...(body.length > 0 ? { body: new Uint8Array(body) } : {}),
    ...options.credentials,
    ...options.signing,
  });
  const headers = forwardedHeaders(call.req);
  headers.set('authorization', signed.authorization);
  const outcome = await fetchBounded(
    targetUrl,
    { method, headers, ...(body.length > 0 ? { body: new Uint8Array(body) } : {}) },
    options.answerLimits ?? DEFAULT_ANSWER_LIMITS,
  );
  if (!outcome.ok) {
    options.log(`target ${outcome.code} for ${method} ${call.target}: ${outcome.cause}`);
    problem(
      call.res,
      outcome.status,
      outcome.code,
      `The proxy got no usable answer from ${targetBase.origin}: ${outcome.cause}.`,
    );
    return;
  }
  const { response, body: answer } = outcome;
  writeAnswer(call.res, response, answer);
  // Observed after the answer is on its way: checking never delays or changes it.
  const path = `${targetUrl.pathname.slice(targetBase.pathname.replace(/\/+$/, '').length)}${targetUrl.search}`;
  observe(state, {
    call,
    path,
    headers,
    body,
    response,
    text: answer.toString('utf8'),
    stringToSign: signed.stringToSign,
  });
}

/** The caller's request as a call to forward; undefined (and the caller refused) when it must not be. */
function callOf(state: ProxyState, req: IncomingMessage, res: ServerResponse): Call | undefined {
  const { options, targetBase } = state;
  const method = req.method ?? 'GET';
  const target = req.url ?? '/';
  const targetUrl = targetUrlOf(target, targetBase);
  if (!targetUrl) {
    options.log(`refused ${method} ${target.slice(0, 200)}: not a path on the target`);
    refuseEarly(
      req,
      res,
      400,
      'MALFORMED_REQUEST',
      `The proxy forwards origin-form request targets (a path and query) to ${targetBase.origin} only.`,
    );
    return undefined;
  }
  const origin = options.publicUrl ?? `http://${req.headers.host ?? `${options.host}:${options.port}`}`;
  return { req, res, method, target, targetUrl, origin };
}

/** Handles one request: the guard, the drift so far, or the caller's request forwarded. */
async function handle(state: ProxyState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const method = req.method ?? 'GET';
  const target = req.url ?? '/';
  // Before anything, /__drift included: a foreign page (Origin) or a rebound name (Host) gets nothing.
  const refusal = state.guard.check(req.headers.host, req.headers.origin);
  if (refusal) {
    state.options.log(`refused ${method} ${target}: ${refusal.code}`);
    refuseEarly(req, res, 403, refusal.code, refusal.detail);
    return;
  }
  if (method === 'GET' && target === '/__drift') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(state.report(), null, 2));
    return;
  }
  const call = callOf(state, req, res);
  if (!call || !(await signatureBeforeBody(state, call))) return;
  const body = await readSignedBody(state, call);
  if (body) await forward(state, call, body);
}

/** Writes `<base>.json`, `<base>.md` and the proposed overlay `<base>.overlay.yaml`. */
function writeReportFiles(options: ProxyOptions, reportPath: string, doc: Record<string, unknown>, final: DriftReport) {
  const base = reportPath.replace(/\.(json|md)$/, '');
  mkdirSync(dirname(base), { recursive: true });
  writeFileSync(`${base}.json`, `${JSON.stringify(final, null, 2)}\n`);
  writeFileSync(`${base}.md`, markdownReport(final));
  writeFileSync(`${base}.overlay.yaml`, stringify(buildOverlay(doc, final.drifts, options.target)));
  options.log(
    `wrote the drift report ${base}.json, ${base}.md; proposed overlay: ${base}.overlay.yaml (${final.drifts.length} drift(s))`,
  );
}

/** The proxy's state for its life: the spec's checker, the nonces seen, the drift log and its counters. */
function proxyState(options: ProxyOptions): ProxyState {
  const drifts = new DriftLog();
  const startedAt = new Date().toISOString();
  let exchanges = 0;
  return {
    options,
    checker: createConformanceChecker({ specPath: options.specPath }),
    nonces: new NonceCache({ max: 100_000 }),
    targetBase: new URL(options.target),
    guard: createRequestGuard({
      host: options.host,
      publicUrl: options.publicUrl,
      allowedHosts: options.allowedHosts,
    }),
    record(drift) {
      const added = drifts.add(drift);
      if (added) options.log(driftLine(added));
    },
    observed() {
      exchanges++;
    },
    report: () => ({
      tool: 'card-issuing-contract proxy',
      target: options.target,
      startedAt,
      exchanges,
      drifts: drifts.all(),
    }),
  };
}

/** Starts the proxy; resolves once it listens. */
export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const state = proxyState(options);
  const doc = parse(readFileSync(options.specPath, 'utf8')) as Record<string, unknown>;
  const server = createServer((req, res) => {
    handle(state, req, res).catch((error: unknown) => {
      options.log(`proxy error on ${req.method} ${req.url}: ${(error as Error).message}`);
      if (!res.headersSent) problem(res, 502, 'PROXY_ERROR', 'The proxy failed to forward the request.');
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}`;
  options.log(`card-issuing-contract proxy on ${url} -> ${options.target}`);
  options.log(
    `  sign for ${options.publicUrl ?? url} with api key ${options.credentials.apiKey} (the same credentials); GET ${url}/__drift for the drift so far`,
  );

  return {
    url,
    report: state.report,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (options.reportPath) writeReportFiles(options, options.reportPath, doc, state.report());
    },
  };
}
