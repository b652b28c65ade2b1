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
import { createConformanceChecker } from '../conformance/validator';
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

/** Starts the proxy; resolves once it listens. */
export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const checker = createConformanceChecker({ specPath: options.specPath });
  const doc = parse(readFileSync(options.specPath, 'utf8')) as Record<string, unknown>;
  const drifts = new DriftLog();
  const nonces = new NonceCache({ max: 100_000 });
  const startedAt = new Date().toISOString();
  const targetBase = new URL(options.target);
  let exchanges = 0;
  const publicOrigin = options.publicUrl;
  const guard = createRequestGuard({
    host: options.host,
    publicUrl: options.publicUrl,
    allowedHosts: options.allowedHosts,
  });

  const record = (drift: Omit<Drift, 'count' | 'firstSeen'>) => {
    const added = drifts.add(drift);
    if (added) options.log(driftLine(added));
  };

  const report = (): DriftReport => ({
    tool: 'card-issuing-contract proxy',
    target: options.target,
    startedAt,
    exchanges,
    drifts: drifts.all(),
  });

  /** Refuses before the body is read: the connection closes once the answer is out, the rest is discarded. */
  const refuseEarly = (req: IncomingMessage, res: ServerResponse, status: number, code: string, detail: string) => {
    discardRest(req, res);
    problem(res, status, code, detail);
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const target = req.url ?? '/';
    // Before anything, /__drift included: a foreign page (Origin) or a rebound name (Host) gets nothing.
    const refusal = guard.check(req.headers.host, req.headers.origin);
    if (refusal) {
      options.log(`refused ${method} ${target}: ${refusal.code}`);
      refuseEarly(req, res, 403, refusal.code, refusal.detail);
      return;
    }
    if (method === 'GET' && target === '/__drift') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(report(), null, 2));
      return;
    }
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
      return;
    }
    const origin = publicOrigin ?? `http://${req.headers.host ?? `${options.host}:${options.port}`}`;
    const authorization = req.headers.authorization;
    const getSecret = (key: string) => (key === options.credentials.apiKey ? options.credentials.apiSecret : undefined);
    const refuseSignature = (code: string, detail: string, early: boolean) => {
      options.log(`refused ${method} ${target}: ${code} (sign for ${origin} with the proxy's api key and secret)`);
      if (early) refuseEarly(req, res, 401, code, detail);
      else problem(res, 401, code, detail);
    };
    // The signature before the body: the five-part signature does not cover it, so it is checked in full; with the
    // body hash, everything but the hash (form, key, timestamp) is.
    if (!options.signing.bodyHash) {
      const verdict = await verifySignature({
        method,
        url: `${origin}${target}`,
        authorization,
        getSecret,
        nonces,
        bodyHash: false,
        secretEncoding: options.signing.secretEncoding,
      });
      if (!verdict.ok) return refuseSignature(verdict.code, verdict.detail, true);
    } else {
      const early = precheckSignature(authorization, options.credentials.apiKey);
      if (early) return refuseSignature(early.code, early.detail, true);
    }
    const body = await readBody(req);
    if (body === 'too-large') {
      options.log(`refused ${method} ${target}: PAYLOAD_TOO_LARGE`);
      refuseEarly(req, res, 413, 'PAYLOAD_TOO_LARGE', `The request body is larger than ${MAX_BODY_BYTES} bytes.`);
      return;
    }
    if (options.signing.bodyHash) {
      const verdict = await verifySignature({
        method,
        url: `${origin}${target}`,
        ...(body.length > 0 ? { body: new Uint8Array(body) } : {}),
        authorization,
        getSecret,
        nonces,
        bodyHash: true,
        secretEncoding: options.signing.secretEncoding,
      });
      if (!verdict.ok) return refuseSignature(verdict.code, verdict.detail, false);
    }

    const signed = await signRequest({
      method,
      url: targetUrl.href,
      ...(body.length > 0 ? { body: new Uint8Array(body) } : {}),
      ...options.credentials,
      ...options.signing,
    });
    const headers = forwardedHeaders(req);
    headers.set('authorization', signed.authorization);
    const outcome = await fetchBounded(
      targetUrl,
      { method, headers, ...(body.length > 0 ? { body: new Uint8Array(body) } : {}) },
      options.answerLimits ?? DEFAULT_ANSWER_LIMITS,
    );
    if (!outcome.ok) {
      options.log(`target ${outcome.code} for ${method} ${target}: ${outcome.cause}`);
      problem(
        res,
        outcome.status,
        outcome.code,
        `The proxy got no usable answer from ${targetBase.origin}: ${outcome.cause}.`,
      );
      return;
    }
    const { response, body: answer } = outcome;
    const out: Record<string, string | string[]> = {};
    response.headers.forEach((value, name) => {
      if (!isAnswerHopHeader(name) && name !== 'set-cookie') out[name] = value;
    });
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) out['set-cookie'] = cookies;
    res.writeHead(response.status, out);
    res.end(answer);

    // Observed after the answer is on its way: checking never delays or changes it.
    exchanges++;
    const path = `${targetUrl.pathname.slice(targetBase.pathname.replace(/\/+$/, '').length)}${targetUrl.search}`;
    const text = answer.toString('utf8');
    const findings = checker.check({
      method,
      url: path,
      requestHeaders: Object.fromEntries(headers),
      requestBody: body.length > 0 ? body.toString('utf8') : undefined,
      status: response.status,
      responseHeaders: Object.fromEntries(response.headers),
      responseBody: text,
    });
    const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]?.trim() || undefined;
    for (const finding of findings) {
      const { kind, subject, location } = classify(finding);
      record({
        kind,
        operationId: finding.operationId,
        method: finding.method,
        path: finding.path,
        location,
        ...(subject === undefined ? {} : { subject }),
        spec: finding.cause === undefined ? finding.message : `${finding.message} (${finding.cause})`,
        ...(finding.actual === undefined ? {} : { observed: finding.actual }),
        request: `${method} ${path}`,
        ...(finding.schemaPointer === undefined ? {} : { schemaPointer: finding.schemaPointer }),
        ...(kind === 'undocumented-status' && mediaType ? { mediaType } : {}),
      });
    }
    if (response.status === 401) {
      let parsed: { code?: unknown; stringToSign?: unknown } = {};
      try {
        parsed = JSON.parse(text) as typeof parsed;
      } catch {
        // not JSON: no code to read
      }
      const code = typeof parsed.code === 'string' ? parsed.code : undefined;
      const expected = typeof parsed.stringToSign === 'string' ? parsed.stringToSign : undefined;
      record({
        kind: 'signature-refused',
        operationId: checker.operationOf(method, path),
        method,
        path: findings[0]?.path ?? path.split('?')[0]!,
        location: 'request.headers.authorization',
        subject: code ?? '401',
        spec: 'the request is signed as the spec says (HMAC-SHA256 of apiKey + METHOD + url + timestamp + nonce)',
        observed: `401 ${code ?? ''}`.trim(),
        request: `${method} ${path}`,
        signing: {
          stringToSign: signed.stringToSign,
          ...(expected === undefined ? {} : { serverStringToSign: expected }),
          likelyCauses: likelyCauses(options, targetUrl.href, body.length > 0, code, signed.stringToSign, expected),
        },
      });
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
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
    report,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (!options.reportPath) return;
      const base = options.reportPath.replace(/\.(json|md)$/, '');
      const final = report();
      mkdirSync(dirname(base), { recursive: true });
      writeFileSync(`${base}.json`, `${JSON.stringify(final, null, 2)}\n`);
      writeFileSync(`${base}.md`, markdownReport(final));
      writeFileSync(`${base}.overlay.yaml`, stringify(buildOverlay(doc, final.drifts, options.target)));
      options.log(
        `wrote the drift report ${base}.json, ${base}.md; proposed overlay: ${base}.overlay.yaml (${final.drifts.length} drift(s))`,
      );
    },
  };
}
