/**
 * Scenario files: every file of examples/scenarios/ validates against the shipped JSON Schema with Ajv (no zod), and
 * loads into a mock, which then holds the world it describes; the shipped schema is the one the builders' option
 * schemas generate. A wrong file is refused whole, every error listed, nothing made.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { createMock, ProblemError, type CardIssuingMock } from '../../mock-server/src/index';
import { loadScenarioFile } from '../../mock-server/src/node.js';
import { zApprovalStatus } from '../../sdk/generated/zod.gen';
import { scenarioJsonSchema } from '../../mock-server/src/control/given/json-schema';
import { codeBlockOf } from '../helpers/markdown';
import { repoPath } from '../helpers/spec';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const SHIPPED = JSON.parse(readFileSync(repoPath('mock-server/scenario.schema.json'), 'utf8')) as Record<
  string,
  unknown
>;
const DIR = repoPath('examples/scenarios');
const files = readdirSync(DIR).filter((f) => /\.(json|ya?ml)$/.test(f));
const T0 = '2026-11-21T09:00:00.000Z';

describe('the shipped scenario schema', () => {
  it('is what the builders’ option schemas generate (npm run generate:scenario-schema)', () => {
    expect(SHIPPED).toEqual(JSON.parse(JSON.stringify(scenarioJsonSchema())));
  });

  it('is exported by the package as card-issuing-mock/scenario.schema.json and shipped in its files', () => {
    const pkg = JSON.parse(readFileSync(repoPath('mock-server/package.json'), 'utf8'));
    expect(pkg.exports['./scenario.schema.json']).toBe('./scenario.schema.json');
    expect(pkg.files).toContain('scenario.schema.json');
  });

  const validate = addFormats(new Ajv2020({ allErrors: true, strict: false })).compile(SHIPPED);
  for (const file of files) {
    it(`validates examples/scenarios/${file} (Ajv, draft 2020-12)`, () => {
      const ok = validate(loadScenarioFile(join(DIR, file)));
      expect(validate.errors ?? [], file).toEqual([]);
      expect(ok).toBe(true);
    });
  }

  it("docs/control-api.md's example validates, and loads: Ada's DELIVERED and FINISHED approvals", () => {
    const example = JSON.parse(codeBlockOf(repoPath('docs/control-api.md'), 'Scenarios: a world in a file', 'json'));
    expect(validate(example)).toBe(true);
    const approvals = Object.values(createMock({ scenario: example }).snapshot().approvals);
    expect(approvals.map((a) => [a.status, a.spent])).toEqual([
      ['DELIVERED', 12_000],
      ['FINISHED', 0],
    ]);
  });

  it('refuses with Ajv what the mock refuses: a status that is not one, an unknown option', () => {
    expect(validate({ given: [{ kind: 'approval', status: 'DONE' }] })).toBe(false);
    expect(validate({ given: [{ kind: 'card', colour: 'red' }] })).toBe(false);
  });
});

const load = (file: string): CardIssuingMock =>
  createMock({ clock: { now: T0 }, scenario: loadScenarioFile(join(DIR, file)) });

describe('examples/scenarios, loaded by createMock({ scenario })', () => {
  it('has a file per world, each loaded here', () => {
    expect(files.sort()).toEqual(['cardholder-steps.yaml', 'corporate-approvals.json', 'low-corporate-balance.json']);
  });

  it('corporate-approvals.json: an approval in every status', () => {
    const mock = load('corporate-approvals.json');
    const statuses = new Set(Object.values(mock.snapshot().approvals).map((a) => a.status));
    expect([...statuses].sort()).toEqual([...zApprovalStatus.options].sort());
    expect(mock.clock.now().toISOString()).toBe(T0);
    // And again after a reset: the same world, the same ids.
    const before = mock.snapshot().approvals;
    mock.reset();
    expect(Object.keys(mock.snapshot().approvals)).toEqual(Object.keys(before));
  });

  it('cardholder-steps.yaml: a cardholder at each step of card issuing', () => {
    const state = load('cardholder-steps.yaml').snapshot();
    const users = Object.values(state.users);
    const by = (email: string) => users.find((u) => u.email === email)!;
    expect(by('kyc-failed@example.org').kycStatus).toBe('FAILED');
    expect(by('verified@example.org').emailVerified).toBe(true);
    const cardOf = (email: string) => Object.values(state.cards).find((c) => c.userId === by(email).id)?.status;
    const draftOf = (email: string) => Object.values(state.drafts).find((d) => d.userId === by(email).id)?.status;
    expect({
      virtual: cardOf('ready@example.org'),
      unpaid: draftOf('paying@example.org'),
      paid: draftOf('paid@example.org'),
      ordered: cardOf('ordered@example.org'),
      active: cardOf('active@example.org'),
      locked: cardOf('locked@example.org'),
    }).toEqual({
      virtual: 'ACTIVE',
      unpaid: 'CREATED',
      paid: 'CHARGED',
      ordered: 'ORDERED',
      active: 'ACTIVE',
      locked: 'LOCKED',
    });
    // Money arrives by deposits (CREDITED at once); the one the file asks for waits for verification data.
    const pending = Object.values(state.verifications).filter((v) => v.status === 'PENDING_APPROVAL');
    expect(pending.map((v) => [v.type, v.amount, v.userId])).toEqual([['USDC', '120.5', by('ready@example.org').id]]);
  });

  it('low-corporate-balance.json: the next purchase over what is left is declined', () => {
    const mock = load('low-corporate-balance.json');
    const approval = Object.values(mock.snapshot().approvals)[0]!;
    expect(
      mock.cards.authorize(approval.cardId, { amount: 1_001, currency: 'EUR', merchant: 'Shop' }).declineReason,
    ).toBe('BUDGET_EXCEEDED');
  });

  it('a tenant added later gets the world too', () => {
    const mock = load('low-corporate-balance.json');
    const other = mock.addCredentials({ apiKey: 'other', apiSecret: 'other_secret' });
    expect(Object.keys(other.snapshot().approvals)).toHaveLength(1);
  });
});

describe('a wrong scenario', () => {
  it('is refused whole by createMock, every error listed with its path', () => {
    const scenario = {
      given: [
        { kind: 'businessUser', as: 'ada' },
        { kind: 'approval', status: 'DELIVERED', user: 'bob', spent: -5 },
        { kind: 'dragon' },
        { kind: 'approval', status: 'FINISHED', corporate: 'Initech' },
      ],
    };
    let error: unknown;
    try {
      createMock({ scenario: scenario as never });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ProblemError);
    expect((error as ProblemError).extras.errors!.map((e) => e.path)).toEqual([
      'given.1.spent',
      'given.1.user',
      'given.2.kind',
      'given.3.corporate',
    ]);
    expect((error as ProblemError).message).toMatch(
      /refused, nothing applied: given\.1\.spent: .*given\.3\.corporate: No corporate named Initech/,
    );
  });

  it('loaded into a running mock changes nothing when an entry is refused', () => {
    const mock = createMock();
    const before = JSON.stringify(mock.snapshot());
    expect(() =>
      mock.loadScenario({
        given: [
          { kind: 'businessUser', as: 'ada' },
          { kind: 'approval', status: 'ACCEPTED', user: 'ada' },
          { kind: 'approval', status: 'DELIVERED', user: 'ada' },
        ],
      }),
    ).toThrow(/given\.2\.user/);
    expect(JSON.stringify(mock.snapshot())).toBe(before);
  });
});
