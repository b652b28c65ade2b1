/**
 * Flow helpers: the orders of the interface document's section 3 ("Flow orders that the interface shows"), over
 * the client's methods. What only the end user or the outside world can do (read an e-mail code, pass KYC, accept
 * consents, deposit crypto, wait for a card to arrive) comes in through callbacks the caller supplies.
 *
 * Each flow reports its steps through `onStep` (`started`, then `done`, `skipped` or `failed`) so that a caller
 * can show progress, and stops with a {@link FlowError} naming the step, with the underlying error as `cause`.
 * @module
 */
export type { AcceptConsents, FlowOptions, FlowStep, FlowStepStatus } from './run';
export { registerUser, type RegisterUserOptions } from './register-user';
export { issueCard, type IssueCardOptions, type IssueCardResult } from './issue-card';
export {
  approveDeposit,
  depositAddress,
  type ApproveDepositOptions,
  type ApproveDepositResult,
  type DepositAddressOptions,
  type DepositAddressResult,
  type DepositArea,
} from './deposits';
