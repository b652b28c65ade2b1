/**
 * The shape of a control route (`/__mock/...`) as the pipeline serves it: method and path, the schemas of its path
 * parameters and body, and what it does with the control of the tenant it acts on. Generic in that control, so the
 * pipeline serves the routes of `control/` and `inspector/` without importing them.
 * @module
 */
import type * as z from 'zod';

/** What a control route's `run` gets. */
export interface RouteArgs<C> {
  control: C;
  params: Record<string, string>;
  body: unknown;
  url: URL;
  /** A request header by lower-case name (the event stream reads `Last-Event-ID`). */
  header(name: string): string | undefined;
}

/** What a control route answers: a JSON body, or a stream written as it comes (server-sent events). */
export type RouteResult =
  | { status: number; body: unknown }
  | { status: number; stream: ReadableStream<Uint8Array>; headers: Record<string, string> };

/** One control route. */
export interface ControlRoute<C> {
  method: 'get' | 'post' | 'put' | 'delete';
  path: string;
  params?: z.ZodType;
  body?: z.ZodType;
  /** The body may be absent (then `body` is `{}`). */
  optionalBody?: boolean;
  /** Synchronous, or a promise for what must wait (the encryption of card details). */
  run(args: RouteArgs<C>): RouteResult | Promise<RouteResult>;
}

/** How the pipeline finds the control a route acts on. */
export interface ControlAccess<C> {
  /** The control of the tenant of `apiKey` (null: the default tenant); undefined when no such tenant exists. */
  control(apiKey: string | null): C | undefined;
}
