/**
 * The reveal frame's script (built into `frame.html`, one self-contained page): makes the key pair, sends its
 * public half to the parent page, decrypts the JWE the parent passes on, and shows the details with copy buttons.
 * The details never leave this document: no message carries them, and the page's Content-Security-Policy allows
 * no connection at all.
 * @module
 * @internal
 */
import type { CardDetails } from '../../generated/types.gen';
import { createRevealKey, revealCardDetails, type RevealKey } from './key';
import {
  isRevealHostMessage,
  type RevealField,
  type RevealFrameMessage,
  type RevealRequestMessage,
  type RevealStyle,
} from './messages';

const LABELS: Record<RevealField, string> = {
  number: 'Card number',
  expiry: 'Expiry',
  cvv: 'CVV',
  cardholder: 'Cardholder',
};

const root = document.getElementById('card') as HTMLElement;
const status = (text: string) => {
  root.replaceChildren(Object.assign(document.createElement('p'), { className: 'status', textContent: text }));
};

/** The parent's origin as its URL names it; checked against what the browser says about the parent. */
function parentOrigin(): string | undefined {
  if (window.parent === window) return undefined;
  const named = new URLSearchParams(location.hash.slice(1)).get('parent');
  if (!named || !/^https?:\/\/[^/]+$/.test(named)) return undefined;
  const known = location.ancestorOrigins?.[0];
  // Where the browser tells (Chromium, Safari), it must be the same origin; an opaque answer tells nothing.
  if (known && known !== 'null' && known !== named) return undefined;
  return named;
}

function shown(details: CardDetails, field: RevealField): string {
  switch (field) {
    case 'number':
      return details.pan.replace(/(\d{4})(?=\d)/g, '$1 ');
    case 'expiry':
      return `${String(details.expiryMonth).padStart(2, '0')}/${String(details.expiryYear % 100).padStart(2, '0')}`;
    case 'cvv':
      return details.cvv;
    case 'cardholder':
      return details.cardholderName;
  }
}

/** The value to copy: the number without the spaces it is shown with. */
const copyText = (details: CardDetails, field: RevealField) =>
  field === 'number' ? details.pan : shown(details, field);

async function copy(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // No clipboard permission in this frame: the selection way, still from the user's click.
    const area = Object.assign(document.createElement('textarea'), { value: text, readOnly: true });
    document.body.append(area);
    area.select();
    const done = document.execCommand('copy');
    area.remove();
    return done;
  }
}

function applyStyle(style: RevealStyle): void {
  const s = document.documentElement.style;
  const vars: [keyof RevealStyle, string][] = [
    ['color', '--color'],
    ['background', '--background'],
    ['fontFamily', '--font'],
    ['fontSize', '--size'],
    ['labelColor', '--label'],
    ['accentColor', '--accent'],
  ];
  for (const [key, name] of vars) {
    const value = style[key];
    if (value !== undefined) s.setProperty(name, value);
  }
}

function render(details: CardDetails, request: RevealRequestMessage, send: (m: RevealFrameMessage) => void): void {
  const list = document.createElement('dl');
  for (const field of request.fields) {
    const row = document.createElement('div');
    row.className = 'row';
    row.dataset.field = field;
    const label = Object.assign(document.createElement('dt'), { textContent: LABELS[field] });
    const value = Object.assign(document.createElement('dd'), { textContent: shown(details, field) });
    const button = Object.assign(document.createElement('button'), { type: 'button', textContent: 'Copy' });
    button.setAttribute('aria-label', `Copy ${LABELS[field].toLowerCase()}`);
    button.addEventListener('click', async () => {
      const copied = await copy(copyText(details, field));
      button.textContent = copied ? 'Copied' : 'Copy failed';
      if (copied) send({ type: 'card-reveal:copied', field });
      setTimeout(() => {
        button.textContent = 'Copy';
      }, 1500);
    });
    const dd = document.createElement('dd');
    dd.append(button);
    row.append(label, value, dd);
    list.append(row);
  }
  root.replaceChildren(list);
}

async function main(): Promise<void> {
  const parent = parentOrigin();
  if (!parent) {
    status('This page shows card details only inside mountCardReveal (card-issuing-sdk/reveal).');
    return;
  }
  const send = (message: RevealFrameMessage) => window.parent.postMessage(message, parent);
  const resize = () => send({ type: 'card-reveal:resize', height: document.documentElement.scrollHeight });
  new ResizeObserver(resize).observe(document.body);
  let key: RevealKey;
  try {
    key = await createRevealKey();
  } catch (error) {
    status('Card details cannot be shown here: this browser offers no Web Crypto.');
    send({ type: 'card-reveal:error', code: codeOf(error), message: 'No Web Crypto (crypto.subtle) in the frame.' });
    return;
  }
  window.addEventListener('message', (event: MessageEvent) => {
    if (event.source !== window.parent || event.origin !== parent) return;
    const request: unknown = event.data;
    if (!isRevealHostMessage(request)) return;
    applyStyle(request.style);
    status('Decrypting…');
    revealCardDetails(request.jwe, key).then(
      (details) => {
        render(details, request, send);
        send({ type: 'card-reveal:revealed', fields: request.fields });
      },
      (error: unknown) => {
        status('The card details could not be shown.');
        // The SDK's errors hold no part of the plaintext; their detail says which rule failed.
        send({ type: 'card-reveal:error', code: codeOf(error), message: detailOf(error) });
      },
    );
  });
  status('Waiting for the card…');
  send({ type: 'card-reveal:ready', publicKey: key.publicKey });
}

const codeOf = (error: unknown) => String((error as { code?: unknown } | null)?.code ?? 'REVEAL_FAILED').slice(0, 100);
const detailOf = (error: unknown) =>
  String((error as { detail?: unknown } | null)?.detail ?? 'The card details could not be revealed.').slice(0, 1000);

void main();
