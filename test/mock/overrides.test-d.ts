/**
 * Type tests of `mock.override` (as msw's *.test-d.ts): typed from the generated operation table and schemas, so an
 * undeclared status, a body of the wrong shape or an unknown operation does not compile. Checked by the TypeScript
 * compiler in `npm run typecheck` (part of `npm test`): each `@ts-expect-error` fails it if the line below compiles.
 */
import { expectTypeOf } from 'vitest';
import type { User } from 'card-issuing-sdk';
import type { CardIssuingMock, OverrideRule, SuccessBody, SuccessStatus } from 'card-issuing-mock';

declare const mock: CardIssuingMock;
declare const user: User;

// What compiles: the success status with its body, any 4xx/5xx with (part of) a problem, nonsense when unchecked.
expectTypeOf(mock.override('getUser', { status: 200, body: user })).toEqualTypeOf<OverrideRule>();
mock.override('getUser', { status: 200, body: { ...user, kycStatus: 'FAILED' }, times: 1, delayMs: 10 });
mock.override('getUser', { status: 404 });
mock.override('getUser', { status: 503, headers: { 'Retry-After': '5' } });
mock.override('getUser', { status: 409, body: { code: 'INVALID_TRANSITION', detail: 'No.' } });
mock.override('listCards', { status: 200, body: { items: [], hasMore: false, nextCursor: null } });
// @ts-expect-error a list without hasMore is not the spec's CardList
mock.override('listCards', { status: 200, body: { items: [], nextCursor: null } });
mock.override('createUser', { status: 201, body: user });
mock.override('getUser', { status: 200, body: 'not a user', unchecked: true });
expectTypeOf<SuccessStatus<'createUser'>>().toEqualTypeOf<201>();
expectTypeOf<SuccessBody<'getUser'>>().toHaveProperty('kycStatus');

// What does not.
// @ts-expect-error getUser answers 200, never 201
mock.override('getUser', { status: 201, body: user });
// @ts-expect-error a 3xx is no status the spec declares
mock.override('getUser', { status: 302 });
// @ts-expect-error a success needs its body
mock.override('getUser', { status: 200 });
// @ts-expect-error kycStatus is one of the spec's values
mock.override('getUser', { status: 200, body: { ...user, kycStatus: 'MAYBE' } });
// @ts-expect-error a list's body is a list, not a user
mock.override('listCards', { status: 200, body: user });
// @ts-expect-error an error body is a Problem: its code is one of the spec's
mock.override('getUser', { status: 404, body: { code: 'NOPE' } });
// @ts-expect-error no such operation
mock.override('getUsers', { status: 200, body: user });
// @ts-expect-error unchecked is for the body: the status is still declared
mock.override('getUser', { status: 204, unchecked: true });
