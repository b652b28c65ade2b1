/**
 * What the contract suite runs against, decided once per run by `card-issuing-contract run` and handed to every test
 * file (each runs in a process of its own) in the environment variable {@link TARGET_ENV}.
 * @module
 */
import type { Finding } from '../../conformance/validator';

/** The environment variable that carries the {@link ContractTarget} as JSON. */
export const TARGET_ENV = 'CARD_ISSUING_CONTRACT_TARGET';

/** How the SDK signs (its client options), for a server that signs differently from the default. */
export interface SigningOptions {
  secretEncoding: 'utf8' | 'base64';
  bodyHash: boolean;
}

/** The server under test. */
export interface ContractTarget {
  /** Base URL of the API (and of the mock's `/__mock/` routes when it has them). */
  baseUrl: string;
  /** True when the server is the mock: `GET /__mock/fixtures` answered. Tests that drive it are skipped otherwise. */
  control: boolean;
  /**
   * Credentials for servers without the control API (--api-key, --api-secret). With the control API every test
   * file makes a tenant of its own instead, so files running in parallel never share a clock or data.
   */
  credentials: { apiKey: string; apiSecret: string } | undefined;
  /** A corporate of the tenant under test, for the business tests against a real service (--corporate). */
  corporate: { corporateUuid: string; currency: string } | undefined;
  signing: SigningOptions;
  /** The OpenAPI document the checker validates against (the one the package carries). */
  specPath: string;
  /** Where each test file leaves its conformance results for the end-of-run report. */
  resultsDir: string;
}

/** One test file's conformance results, written when the file ends. */
export interface FileConformance {
  file: string;
  checked: number;
  operations: string[];
  findings: Finding[];
  /** Tests skipped because the server has no mock control API. */
  skippedForControl: number;
}

/** Why tests that drive the mock are skipped against a real service. */
export const NEEDS_CONTROL =
  "needs the mock's control API, which this server does not have (GET /__mock/fixtures): it plays the user and the outside world (OTP e-mail, KYC, deposits, registration, the clock)";

/** The target of this run, as the CLI left it in the environment. */
export function readTarget(): ContractTarget {
  const raw = process.env[TARGET_ENV];
  if (!raw)
    throw new Error(`The contract suite runs through \`card-issuing-contract run\` (${TARGET_ENV} is not set).`);
  return JSON.parse(raw) as ContractTarget;
}
