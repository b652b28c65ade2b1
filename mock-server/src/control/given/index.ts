/**
 * The builders (`mock.given.*`, `POST /__mock/given/{kind}`) and scenarios (the same builders in order, from a
 * JSON or YAML file): each call reaches its state through the domain's own operations, atomically (a builder that
 * fails leaves the tenant as it was, and tells no listener of the steps it undid).
 * @module
 */
import type { ApprovalStatus } from 'card-issuing-sdk';
import { contextOf, settle, ProblemError, type DomainContext, type DomainEvent } from '../../domain';
import type { ObservedRuntime } from '../../observe/runtime';
import { fieldErrors, validateParts, type FieldError } from '../../pipeline/validation';
import { cloneState, type Tenant, type TenantState } from '../../store';
import {
  givenApproval,
  givenBusinessUser,
  givenCorporateBalance,
  type GivenApproval,
  type GivenBusinessUser,
  type GivenCorporateBalance,
} from './business';
import type { BuildContext, NamedRecord } from './context';
import {
  GIVEN_OPTIONS,
  zScenario,
  type GivenApprovalOptions,
  type GivenBalanceOptions,
  type GivenBusinessUserOptions,
  type GivenCardOptions,
  type GivenCorporateBalanceOptions,
  type GivenDepositAddressOptions,
  type GivenKind,
  type GivenUserOptions,
  type GivenVerificationOptions,
  type Scenario,
} from './options';
import {
  givenBalance,
  givenCard,
  givenDepositAddress,
  givenUser,
  givenVerification,
  type GivenCard,
  type GivenDepositAddress,
  type GivenUser,
  type GivenVerification,
} from './s2s';

export * from './options';
export type { GivenApproval, GivenBusinessUser, GivenCorporateBalance } from './business';
export type { GivenCard, GivenDepositAddress, GivenUser, GivenVerification } from './s2s';

/**
 * One call per state: each returns the records it made. Nothing moves the tenant's clock: a state that needs time to
 * have passed (a FINISHED approval, an EXPIRED change request, a physical card whose order completed) is given a
 * history in the past. Bad options are a 400 VALIDATION_FAILED ProblemError naming each; a state the domain refuses
 * (a corporate without the funds) its own ProblemError; either way nothing changed.
 */
export interface GivenControl {
  /** An approval in `status` (any of the nine), with `spent` and `held` already bought on its card. */
  approval<S extends ApprovalStatus>(options: GivenApprovalOptions & { status: S }): GivenApproval<S>;
  /** A business user, PENDING or `registered`, made 90 days back. */
  businessUser(options?: GivenBusinessUserOptions): GivenBusinessUser;
  /** A Server2Server user, made 90 days back: registered (default), e-mail verified, KYC passed or failed, a balance. */
  user(options?: GivenUserOptions): GivenUser;
  /** A Server2Server card: virtual or physical, ACTIVE, ORDERED or LOCKED, or a draft CREATED or CHARGED. */
  card(options?: GivenCardOptions): GivenCard;
  /** A user's balance credited with `amount` minor units (by a deposit). */
  balance(options: GivenBalanceOptions): GivenUser;
  /** A deposit address of a user's balance. */
  depositAddress(options?: GivenDepositAddressOptions): GivenDepositAddress;
  /** A deposit waiting for verification data (or credited). */
  verification(options?: GivenVerificationOptions): GivenVerification;
  /** A corporate's available balance raised to `available` by a top-up. */
  corporateBalance(options: GivenCorporateBalanceOptions): GivenCorporateBalance;
}

/** What a scenario made: each entry's result in order, and by the `as` names. */
export interface ScenarioResult {
  results: unknown[];
  named: Record<string, unknown>;
}

type Builder = (b: BuildContext, options: never) => unknown;
const BUILDERS: Record<GivenKind, Builder> = {
  businessUser: givenBusinessUser,
  approval: givenApproval,
  user: givenUser,
  card: givenCard,
  balance: givenBalance,
  depositAddress: givenDepositAddress,
  verification: givenVerification,
  corporateBalance: givenCorporateBalance,
};

/** Runs the builder of `kind` with options already parsed by its schema. */
function build(kind: GivenKind, b: BuildContext, options: unknown): unknown {
  return (BUILDERS[kind] as (b: BuildContext, o: unknown) => unknown)(b, options);
}

/**
 * The options of `kind`, parsed (400 VALIDATION_FAILED naming each bad one under `body.`). Only absent options are
 * the defaults: `null` is refused as any other value that is not an object.
 */
export function parseGivenOptions(kind: GivenKind, options: unknown): unknown {
  return validateParts([
    { location: 'body', schema: GIVEN_OPTIONS[kind], value: options === undefined ? {} : options },
  ])[0];
}

/** The builders and scenarios of the tenant `getTenant` gives, over the observed runtime. */
export function givenControl(
  runtime: ObservedRuntime,
  getTenant: () => Tenant,
): { given: GivenControl; loadScenario(scenario: Scenario): ScenarioResult } {
  /** Settles, then runs `fn` on the tenant's state; on failure the state is put back and no event told. */
  const atomically = <R>(fn: (ctx: DomainContext) => R): R => {
    const tenant = getTenant();
    const emit = runtime.observer.emitter(tenant.apiKey);
    const moved = settle(contextOf(tenant.state, emit)) > 0;
    const backup = cloneState(tenant.state);
    const events: DomainEvent[] = [];
    try {
      const result = fn(contextOf(tenant.state, (event) => void events.push(event)));
      for (const event of events) emit?.(event);
      runtime.changed();
      return result;
    } catch (error) {
      tenant.state = backup;
      if (moved) runtime.changed();
      throw error;
    }
  };
  const one =
    (kind: GivenKind) =>
    (options?: unknown): never =>
      atomically((ctx) => {
        const parsed = parseGivenOptions(kind, options);
        return build(kind, { ctx, now: ctx.now, path: 'body.', names: new Map() }, parsed) as never;
      });
  const given = Object.fromEntries(
    Object.keys(BUILDERS).map((kind) => [kind, one(kind as GivenKind)]),
  ) as unknown as GivenControl;
  return {
    given,
    // A control call: its errors are named where they are in `POST /__mock/scenario`'s body (`body.given.2.status`).
    loadScenario: (scenario) => atomically((ctx) => applyScenario(ctx, scenario, 'body.')),
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Every error of a scenario before anything is applied: its shape (each bad field, with its JSON path) and its
 * names (an entry naming a record no earlier entry made, a name given twice). `prefix` is where the scenario is:
 * `body.` in a control call (`body.given.2.status`, the body itself `body`), nothing in a file (`given.2.status`,
 * the file itself `(root)`).
 */
export function scenarioErrors(scenario: unknown, state?: TenantState, prefix: '' | 'body.' = ''): FieldError[] {
  const parsed = zScenario.safeParse(scenario);
  const shape = parsed.success
    ? []
    : fieldErrors(parsed.error, 'body').map((e) =>
        prefix ? e : { ...e, path: e.path.replace(/^body\.?/, '') || '(root)' },
      );
  // The names are checked even when the shape is wrong, so that one answer lists every error.
  const entries = (scenario as { given?: unknown } | null)?.given;
  const errors = [...shape, ...(Array.isArray(entries) ? nameErrors(entries, state, prefix) : [])];
  const index = (path: string) => Number(/^(?:body\.)?given\.(\d+)/.exec(path)?.[1] ?? -1);
  return errors.sort((a, b) => index(a.path) - index(b.path));
}

/** References to names no earlier entry gave (or corporates the fixtures do not have), and names given twice. */
function nameErrors(entries: unknown[], state: TenantState | undefined, prefix: string): FieldError[] {
  const errors: FieldError[] = [];
  const names = new Set<string>();
  const corporateNames = new Set(Object.values(state?.corporates ?? {}).map((c) => c.name));
  entries.forEach((entry, i) => {
    if (typeof entry !== 'object' || entry === null) return;
    const refs = entry as { user?: unknown; corporate?: unknown; as?: unknown };
    if (typeof refs.user === 'string' && !UUID.test(refs.user) && !names.has(refs.user))
      errors.push({
        path: `${prefix}given.${i}.user`,
        message: `No earlier entry is named ${refs.user} (names come from "as")`,
      });
    const corporate = refs.corporate;
    if (
      typeof corporate === 'string' &&
      state !== undefined &&
      !UUID.test(corporate) &&
      !names.has(corporate) &&
      !corporateNames.has(corporate)
    )
      errors.push({
        path: `${prefix}given.${i}.corporate`,
        message: `No corporate named ${corporate} (${[...corporateNames].join(', ')})`,
      });
    if (typeof refs.as === 'string') {
      if (names.has(refs.as))
        errors.push({ path: `${prefix}given.${i}.as`, message: `The name ${refs.as} is given twice` });
      names.add(refs.as);
    }
  });
  return errors;
}

/** 400 VALIDATION_FAILED listing every error of a scenario, or nothing. */
export function checkScenario(
  scenario: unknown,
  state?: TenantState,
  prefix: '' | 'body.' = '',
): asserts scenario is Scenario {
  const errors = scenarioErrors(scenario, state, prefix);
  if (errors.length > 0) throw scenarioRefused(errors);
}

/**
 * Applies a scenario's builders in order to the state of `ctx` (settled at its now). Checked whole first; a builder
 * that fails is reported with its entry's path, under `prefix` (the caller undoes the entries before it).
 */
export function applyScenario(ctx: DomainContext, scenario: Scenario, prefix: '' | 'body.' = ''): ScenarioResult {
  checkScenario(scenario, ctx.state, prefix);
  const parsed = zScenario.parse(scenario);
  const names = new Map<string, NamedRecord>();
  const results: unknown[] = [];
  parsed.given.forEach((entry, i) => {
    const { kind, as, ...options } = entry as { kind: GivenKind; as?: string } & Record<string, unknown>;
    const b: BuildContext = { ctx, now: ctx.now, path: `${prefix}given.${i}.`, names };
    let result: unknown;
    try {
      result = build(kind, b, options);
    } catch (error) {
      if (error instanceof ProblemError && error.code !== 'VALIDATION_FAILED')
        throw scenarioRefused([{ path: `${prefix}given.${i}`, message: `${error.code}: ${error.detail}` }]);
      throw error;
    }
    results.push(result);
    if (as !== undefined) names.set(as, result as NamedRecord);
  });
  return { results, named: Object.fromEntries(names) };
}

/** 400 VALIDATION_FAILED whose detail lists every error (a CLI prints it as it is). */
function scenarioRefused(errors: FieldError[]): ProblemError {
  const list = errors.map((e) => `${e.path}: ${e.message.replace(/\.$/, '')}`).join('; ');
  return new ProblemError('VALIDATION_FAILED', `The scenario is refused, nothing applied: ${list}.`, { errors });
}

/** A scenario applied to a freshly seeded state (no one listens yet); throws what {@link applyScenario} throws. */
export function furnish(state: TenantState, scenario: Scenario): void {
  applyScenario(contextOf(state), scenario);
  settle(contextOf(state));
}
