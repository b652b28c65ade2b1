/**
 * The front-end example: the SDK in a page, against the mock in a service worker. It creates a business user and an
 * approval on a seeded corporate, completes the user's registration through the mock's control API, shows the
 * approval once it is DELIVERED, and decrypts its card details with a key pair made in the page.
 *
 * Imports only the package's public entries; `vite.config.ts` points them at the sources.
 */
import type { BrowserMock } from 'card-issuing-mock/browser';
import { type CardIssuingClient, createCardIssuingClient, generateCardKeyPair } from 'card-issuing-sdk';

const $ = <T extends HTMLElement = HTMLElement>(id: string): T => {
  const element = document.getElementById(id);
  if (!element) throw new Error(`#${id} is missing from index.html`);
  return element as T;
};

/** Adds a progress line and returns a function that marks it done (or failed). */
function step(name: string): { done(result: string): void; fail(error: unknown): never } {
  const item = document.createElement('li');
  item.textContent = `${name} …`;
  $('steps').append(item);
  return {
    done(result) {
      item.textContent = `${name}: ${result}`;
    },
    fail(error) {
      item.textContent = `${name}: failed`;
      item.className = 'failed';
      throw error;
    },
  };
}

/** Runs one step: shows its name, then its result, or marks it failed and rethrows. */
async function run<T>(name: string, action: () => Promise<T> | T, describe: (value: T) => string): Promise<T> {
  const line = step(name);
  try {
    const value = await action();
    line.done(describe(value));
    return value;
  } catch (error) {
    return line.fail(error);
  }
}

const formatMoney = (m: { amount: number; currency: string }) => `${(m.amount / 100).toFixed(2)} ${m.currency}`;
const groupPan = (pan: string) => pan.replace(/(.{4})(?=.)/g, '$1 ');

async function main(): Promise<void> {
  const { mock, client } = await startMockAndClient();
  const button = $<HTMLButtonElement>('run');
  button.disabled = false;
  document.body.dataset.state = 'ready';

  button.addEventListener('click', () => {
    button.disabled = true;
    document.body.dataset.state = 'running';
    flow(mock, client).then(
      () => {
        document.body.dataset.state = 'done';
      },
      (error: unknown) => {
        document.body.dataset.state = 'error';
        const alert = $('error');
        alert.hidden = false;
        alert.textContent = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      },
    );
  });
}

type Mock = BrowserMock['mock'];

/** The mock in this page's service worker, and a client that calls it. */
async function startMockAndClient(): Promise<{ mock: Mock; client: CardIssuingClient }> {
  // The mock answers requests to this page's own origin from the service worker; the page's assets go through.
  // Loaded with a dynamic import, as an app would, so that the mock is a chunk of its own that a real build can drop.
  const { startBrowserMock } = await import('card-issuing-mock/browser');
  const { mock } = await startBrowserMock({ quiet: true });
  // dangerouslyAllowBrowser: a secret in a page is readable by everyone who opens it, so the SDK refuses one in a
  // browser by default. Here the secret is the mock's public test secret and the page talks to the mock in its own
  // service worker: nothing real to leak. A production page calls its own server, which holds the secret.
  const client = createCardIssuingClient({
    baseUrl: location.origin,
    apiKey: 'test_key',
    apiSecret: 'test_secret',
    dangerouslyAllowBrowser: true,
  });
  return { mock, client };
}

/** The flow the button runs: a delivered approval's card, then its details on the page. */
async function flow(mock: Mock, client: CardIssuingClient): Promise<void> {
  const { corporate, approval } = await deliverApproval(mock, client);
  const details = await revealCardDetails(client, corporate.corporateUuid, approval.approvalUuid);
  $('corporate').textContent = `${corporate.name} (${corporate.corporateUuid})`;
  $('approval-uuid').textContent = approval.approvalUuid;
  $('approval-status').textContent = approval.status;
  $('budget').textContent = formatMoney(approval.budget);
  $('pan').textContent = groupPan(details.pan);
  $('expiry').textContent = `${String(details.expiryMonth).padStart(2, '0')}/${String(details.expiryYear).slice(-2)}`;
  $('cvv').textContent = details.cvv;
  $('cardholder').textContent = details.cardholderName;
  $('result').hidden = false;
}

/** A business user and an approval on the seeded corporate, DELIVERED once the user's registration completes. */
async function deliverApproval(mock: Mock, client: CardIssuingClient) {
  const corporate = await run(
    'Seeded corporate',
    () => {
      const first = mock.fixtures().corporates[0];
      if (!first) throw new Error('the mock has no seeded corporate');
      return first;
    },
    (c) => `${c.name}, balance ${formatMoney(c.balance)}`,
  );
  const user = await run(
    'Create a business user',
    () =>
      client.corporates.users.create({
        name: 'Grace',
        lastName: 'Hopper',
        email: 'grace@corp.example',
        phone: '+12025550143',
      }),
    (u) => `${u.userUuid} (${u.registrationStatus})`,
  );
  const now = mock.clock.now();
  const created = await run(
    'Create an approval',
    () =>
      client.corporates.approvals.create(corporate.corporateUuid, {
        userUuid: user.userUuid,
        budget: { amount: 50_000, currency: corporate.balance.currency },
        validFrom: now.toISOString(),
        validTo: new Date(now.getTime() + 30 * 24 * 3600 * 1000).toISOString(),
      }),
    (a) => `${a.approvalUuid} (${a.status})`,
  );
  await run(
    "Complete the user's registration (mock control API)",
    () => mock.users.completeRegistration(user.userUuid),
    () => 'done',
  );
  const approval = await run(
    'Read the approval',
    () => client.corporates.approvals.get(corporate.corporateUuid, created.approvalUuid),
    (a) => a.status,
  );
  return { corporate, approval };
}

/** The approval's card details, fetched encrypted for a key pair made here and decrypted with it. */
async function revealCardDetails(client: CardIssuingClient, corporateUuid: string, approvalUuid: string) {
  const keyPair = await run(
    'Generate an RSA key pair',
    () => generateCardKeyPair({ bits: 2048 }),
    () => '2048 bits',
  );
  return run(
    'Get and decrypt the card details',
    () => client.corporates.approvals.getDetails(corporateUuid, approvalUuid, { keyPair }),
    (d) => `card ending ${d.pan.slice(-4)}`,
  );
}

main().catch((error: unknown) => {
  document.body.dataset.state = 'error';
  const alert = $('error');
  alert.hidden = false;
  alert.textContent = `The page could not start: ${error instanceof Error ? error.message : String(error)}`;
});
