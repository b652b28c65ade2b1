/**
 * The deposit flows (interface document, section 3): the address to deposit to, and the approval of a deposit
 * that needs verification; in the Server2Server area or the Wallet App's.
 * @module
 */
import type {
  DepositAddress,
  DepositOptions,
  DepositType,
  DepositTypeCode,
  DepositVerification,
  VerificationData,
} from '../../generated/types.gen';
import type { ResourceMethods as CardIssuingClient } from '../resources';
import { FlowRun, type AcceptConsents, type FlowOptions } from './run';

/** Which API a deposit flow uses: Server2Server (`/s2s`, default) or the Wallet App (`/app`). */
export type DepositArea = 's2s' | 'app';

/** Options of {@link depositAddress}. Steps: `listBalances` (s2s without balanceId), `listTypes`, `signDepositConsents`, `listAddresses`, `createAddress`. */
export interface DepositAddressOptions extends FlowOptions {
  /** The user (`userId` in /s2s, `userUuid` in /app). */
  userId: string;
  /** The asset, e.g. `USDC`. */
  type: DepositTypeCode;
  /** The balance to credit; defaults to the user's balance that offers `type` (/app) or the user's first balance (/s2s). */
  balanceId?: string;
  /** The deposit options of a new address; `network` defaults to the type's first network. */
  depositOptions?: Partial<DepositOptions>;
  /** Asked with the type's unsigned deposit consents. */
  acceptConsents: AcceptConsents;
  area?: DepositArea;
}

/** What {@link depositAddress} returns. */
export interface DepositAddressResult {
  depositType: DepositType;
  address: DepositAddress;
  /** True when this flow created the address; false when one existed. */
  created: boolean;
}

/**
 * Deposit address: list deposit types; sign unsigned consents; list addresses; if no address exists, create one
 * from deposit options. Returns the address to show the user.
 */
export async function depositAddress(
  client: CardIssuingClient,
  options: DepositAddressOptions,
): Promise<DepositAddressResult> {
  const run = new FlowRun('depositAddress', options);
  const app = options.area === 'app';
  const { userId, type } = options;
  const balanceId = options.balanceId ?? (app ? undefined : await firstBalance(client, run, userId));

  const depositType = await run.step(
    'listTypes',
    async () => {
      const types = await (app
        ? client.app.deposits.listTypes(userId, run.call)
        : client.s2s.deposits.listTypes(balanceId!, run.call));
      return (
        types.items.find((t) => t.type === type && (balanceId === undefined || t.balanceId === balanceId)) ??
        run.refuse(
          'listTypes',
          'DEPOSIT_TYPE_NOT_FOUND',
          `no deposit type ${type}${balanceId ? ` for balance ${balanceId}` : ''}`,
        )
      );
    },
    (t) => `type ${t.type} of balance ${t.balanceId}`,
  );
  const balance = depositType.balanceId;

  await run.signConsents(
    'signDepositConsents',
    depositType.requiredConsents,
    { userId, purpose: 'deposit' },
    options.acceptConsents,
    (c) => (app ? client.app.consents.sign(userId, c.id, run.call) : client.s2s.consents.sign(userId, c.id, run.call)),
  );

  const addresses = await run.step(
    'listAddresses',
    () =>
      app
        ? client.app.deposits.listAddresses(balance, type, run.call)
        : client.s2s.deposits.listAddresses(balance, type, run.call),
    (a) => `${a.items.length} addresses`,
  );
  const existing = addresses.items[0];
  if (existing) {
    run.skip('createAddress', `address ${existing.id} exists`);
    return { depositType, address: existing, created: false };
  }
  const address = await run.step(
    'createAddress',
    () => {
      const network =
        options.depositOptions?.network ??
        depositType.networks[0] ??
        run.refuse('createAddress', 'NETWORK_NOT_SUPPORTED', `type ${type} lists no network`);
      const body: DepositOptions = { ...options.depositOptions, network };
      return app
        ? client.app.deposits.createAddress(balance, type, body, run.call)
        : client.s2s.deposits.createAddress(balance, type, body, run.call);
    },
    (a) => `address ${a.id} on ${a.network}`,
  );
  return { depositType, address, created: true };
}

/** The user's first balance (Server2Server), when the caller named none. */
function firstBalance(client: CardIssuingClient, run: FlowRun, userId: string): Promise<string> {
  return run.step(
    'listBalances',
    async () =>
      (await client.s2s.balances.list(userId, run.call)).items[0]?.id ??
      run.refuse('listBalances', 'BALANCE_NOT_FOUND', `user ${userId} has no balance`),
    (id) => `balance ${id}`,
  );
}

/** Options of {@link approveDeposit}. Steps: `listVerifications`, `approveVerification`. */
export interface ApproveDepositOptions extends FlowOptions {
  /** The user (`userId` in /s2s, `userUuid` in /app). */
  userId: string;
  /** Only this verification; default: every one of the user's verifications pending approval. */
  verificationId?: string;
  /** The verification data the service asks for, per pending deposit (ask the user). */
  getVerificationData: (verification: DepositVerification) => VerificationData | Promise<VerificationData>;
  area?: DepositArea;
}

/** What {@link approveDeposit} returns. */
export interface ApproveDepositResult {
  /** The verifications approved, as the service returned them (the balance is then credited by the service). */
  approved: DepositVerification[];
  /** Every verification listed, as listed. */
  verifications: DepositVerification[];
}

/**
 * Deposit approval: after the user deposited crypto, list verifications; if a verification is needed, approve it
 * with verification data; the balance is then credited by the service.
 */
export async function approveDeposit(
  client: CardIssuingClient,
  options: ApproveDepositOptions,
): Promise<ApproveDepositResult> {
  const run = new FlowRun('approveDeposit', options);
  const app = options.area === 'app';
  const { userId } = options;

  const list = await run.step(
    'listVerifications',
    async () => {
      // Every page: a user with many deposits has pending ones beyond the first.
      const items: DepositVerification[] = [];
      for await (const v of app
        ? client.app.deposits.listVerifications(userId, run.call)
        : client.s2s.deposits.listVerifications({ userId }, run.call))
        items.push(v);
      const listed = { items };
      if (options.verificationId !== undefined && !listed.items.some((v) => v.id === options.verificationId)) {
        run.refuse(
          'listVerifications',
          'VERIFICATION_NOT_FOUND',
          `no verification ${options.verificationId} for user ${userId}`,
        );
      }
      return listed;
    },
    (l) => `${l.items.length} verifications`,
  );
  const pending = list.items.filter(
    (v) =>
      v.status === 'PENDING_APPROVAL' &&
      v.verificationRequired &&
      (options.verificationId === undefined || v.id === options.verificationId),
  );
  if (pending.length === 0) {
    run.skip('approveVerification', 'no verification pending approval');
    return { approved: [], verifications: list.items };
  }
  const approved = await run.step(
    'approveVerification',
    async () => {
      const done: DepositVerification[] = [];
      for (const verification of pending) {
        const data = await run.callback('approveVerification', () => options.getVerificationData(verification));
        done.push(
          await (app
            ? client.app.deposits.approveVerification(verification.id, data, run.call)
            : client.s2s.deposits.approveVerification(verification.id, data, run.call)),
        );
      }
      return done;
    },
    (done) => `approved ${done.map((v) => `${v.id} (${v.status})`).join(', ')}`,
  );
  return { approved, verifications: list.items };
}
