/**
 * `npm run demo`: every flow of the interface document, in its order, through the SDK's public API.
 *
 *   npm run demo                                         in-process mock (no port, no network)
 *   npm run demo -- --base-url http://127.0.0.1:4010     a running card-issuing-mock, in a fresh tenant
 *   npm run demo -- --only card-issuing                  one flow
 *
 * Prints one line per step, stops at the first failure (exit 1) with the typed error's code and detail, and ends
 * with the independent conformance report (how many of the spec's operations were validated, 0 mismatches).
 */
import { businessLifecycle } from './business-lifecycle';
import { cardDetails } from './card-details';
import { cardIssuing } from './card-issuing';
import { registration } from './registration';
import { s2sDeposit } from './s2s-deposit';
import { runDemo } from './support/run';
import { walletAppDeposit } from './wallet-app-deposit';

/** Every flow, in the order of the interface document. */
export const examples = [registration, cardIssuing, cardDetails, s2sDeposit, walletAppDeposit, businessLifecycle];

if (import.meta.main) process.exitCode = await runDemo({ examples, argv: process.argv.slice(2) });
