/**
 * The standalone mock's Host and Origin guard (contract section 7): the SDK's `createRequestGuard` (which the
 * contract package's drift proxy uses too), given this machine's addresses for a server listening on every interface.
 * @module
 */
import { networkInterfaces } from 'node:os';
import { createRequestGuard, type RequestGuard, type RequestGuardOptions } from 'card-issuing-sdk/server';

/** What the guard allows. */
export type GuardOptions = Omit<RequestGuardOptions, 'interfaceAddresses'>;
/** The checks of one server. */
export type Guard = RequestGuard;

/** Builds the guard of the mock's server from its options. */
export function createGuard(options: GuardOptions): Guard {
  return createRequestGuard({ ...options, interfaceAddresses: localAddresses() });
}

function localAddresses(): string[] {
  const out: string[] = [];
  for (const list of Object.values(networkInterfaces())) for (const info of list ?? []) out.push(info.address);
  return out;
}
