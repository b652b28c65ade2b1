/**
 * What the contract suite runs against, decided once per run by the global setup and handed to every test file
 * (vitest's `provide`/`inject`).
 * @module
 */

/** The server under test. */
export interface ContractTarget {
  /** Base URL of the API (and of the mock's `/__mock/` routes when it has them). */
  baseUrl: string;
  /** True when the server is the mock: `GET /__mock/fixtures` answered. Tests that drive it are skipped otherwise. */
  control: boolean;
  /**
   * Credentials for servers without the control API (CONTRACT_API_KEY, CONTRACT_API_SECRET). With the control API
   * every test file makes a tenant of its own instead, so files running in parallel never share a clock or data.
   */
  credentials: { apiKey: string; apiSecret: string } | undefined;
  /** A corporate of the tenant under test, for the business tests against a real service (CONTRACT_CORPORATE_UUID). */
  corporateUuid: string | undefined;
  /** Where each test file leaves its conformance results for the end-of-run report. */
  resultsDir: string;
}

/** One test file's conformance results, written when the file ends. */
export interface FileConformance {
  file: string;
  checked: number;
  operations: string[];
  findings: string[];
  /** Tests skipped because the server has no mock control API. */
  skippedForControl: number;
}

/** Why tests that drive the mock are skipped against a real service. */
export const NEEDS_CONTROL =
  "needs the mock's control API, which this server does not have (GET /__mock/fixtures): it plays the user and the outside world (OTP e-mail, KYC, deposits, registration, the clock)";

declare module 'vitest' {
  export interface ProvidedContext {
    contract: ContractTarget;
  }
}
