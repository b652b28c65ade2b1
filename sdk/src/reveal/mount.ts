/**
 * `mountCardReveal`: the card shown inside a sandboxed iframe on another origin, which makes the key pair, gives
 * the page only its public half, and decrypts and shows the details itself. The page passes on the public key and
 * the JWE and never holds the card; the frame's document is sandboxed (an opaque origin), so no script of the page
 * can reach into it either.
 * @module
 */
import { CardDetailsError } from '../core/errors/classes';
import {
  REVEAL_FIELDS,
  isRevealFrameMessage,
  isRevealStyle,
  type RevealField,
  type RevealFrameMessage,
  type RevealHostMessage,
  type RevealStyle,
} from './messages';

/** What {@link mountCardReveal} takes. */
export interface MountCardRevealOptions {
  /**
   * The URL of the reveal frame (the package's `card-issuing-sdk/reveal/frame.html`, served as it is) on an origin
   * other than the page's, e.g. `https://reveal.example.com/frame.html`.
   */
  frameUrl: string | URL;
  /**
   * Gets the details encrypted to `publicKey`: typically a call to your backend, which calls
   * `getEncryptedDetails(cardId, { publicKey })` and answers with the JWE it got, unread.
   */
  fetchEncrypted(publicKey: string): Promise<string>;
  /** The fields to show, in this order (default: number, expiry, CVV, cardholder). */
  fields?: readonly RevealField[];
  /** Colours and font of the frame's content. */
  style?: RevealStyle;
  /** The frame's accessible name (default "Card details"). */
  title?: string;
  /** Called when the user copied a field from inside the frame (the value stays in the frame). */
  onCopy?(field: RevealField): void;
}

/** A mounted reveal: its iframe, the outcome, and the way to take it down. */
export interface CardReveal {
  /** The iframe, in the element given. */
  readonly frame: HTMLIFrameElement;
  /**
   * Settles when the frame shows the card (with the fields shown), or rejects: with what `fetchEncrypted` threw,
   * or a `CardDetailsError` whose `code` says what the frame refused (`CARD_DETAILS_DECRYPTION_FAILED`, ...).
   */
  readonly revealed: Promise<RevealField[]>;
  /** Removes the iframe (and with it the key and the details) and stops listening. */
  destroy(): void;
}

/**
 * Shows a card's number, expiry, CVV and cardholder, with copy buttons, inside a sandboxed iframe loaded from
 * `frameUrl` (another origin) and appended to `element`. The frame makes an RSA-OAEP-256 key pair whose private key
 * cannot be exported, sends its public key here, and this calls `fetchEncrypted(publicKey)` and passes the JWE to
 * the frame, which decrypts and shows it. Messages are accepted only from that iframe's window, with the opaque
 * origin of a sandboxed frame, and only in the shapes of {@link RevealFrameMessage}.
 *
 * Throws a `CardDetailsError` (`REVEAL_FRAME_SAME_ORIGIN`) when `frameUrl` is on the page's own origin: a script
 * there (or a service worker of that origin) could change the frame.
 */
export function mountCardReveal(element: HTMLElement, options: MountCardRevealOptions): CardReveal {
  const frameUrl = crossOriginFrameUrl(options.frameUrl);
  const { fields, style } = checkedLook(options);
  const frame = sandboxedFrame(frameUrl, options.title);

  let settle: { resolve(fields: RevealField[]): void; reject(error: unknown): void } | undefined;
  const revealed = new Promise<RevealField[]>((resolve, reject) => {
    settle = { resolve, reject };
  });
  // Marked handled here: a page that never awaits `revealed` gets no unhandled rejection from destroy().
  revealed.catch(() => undefined);
  const fail = (error: unknown) => settle?.reject(error);
  const send = (message: RevealHostMessage) => {
    // A sandboxed frame's origin is opaque, so no target origin can name it; the JWE opens only with its key.
    frame.contentWindow?.postMessage(message, '*');
  };

  const onMessage = (event: MessageEvent) => {
    if (event.source !== frame.contentWindow || event.origin !== 'null') return;
    const message: unknown = event.data;
    if (!isRevealFrameMessage(message)) return;
    handle(message);
  };
  const handle = (message: RevealFrameMessage) => {
    switch (message.type) {
      case 'card-reveal:ready':
        // Called in a promise, so that one that throws at once rejects `revealed` like one that rejects.
        Promise.resolve(message.publicKey)
          .then((publicKey) => options.fetchEncrypted(publicKey))
          .then((jwe) => {
            if (typeof jwe !== 'string') {
              fail(
                new CardDetailsError({ code: 'REVEAL_FETCH_INVALID', detail: 'fetchEncrypted must return the JWE.' }),
              );
              return;
            }
            send({ type: 'card-reveal:reveal', jwe, fields, style });
          }, fail);
        return;
      case 'card-reveal:revealed':
        settle?.resolve(message.fields);
        return;
      case 'card-reveal:resize':
        frame.style.height = `${Math.ceil(Math.min(message.height, 2000))}px`;
        return;
      case 'card-reveal:copied':
        options.onCopy?.(message.field);
        return;
      case 'card-reveal:error':
        fail(new CardDetailsError({ code: message.code, detail: message.message }));
    }
  };

  window.addEventListener('message', onMessage);
  element.append(frame);
  return {
    frame,
    revealed,
    destroy() {
      window.removeEventListener('message', onMessage);
      frame.remove();
      fail(new CardDetailsError({ code: 'REVEAL_DESTROYED', detail: 'The reveal was taken down.' }));
    },
  };
}

/** The frame's URL, on another origin than the page's, with the page's origin in its hash. */
function crossOriginFrameUrl(url: string | URL): URL {
  const frameUrl = new URL(url, location.href);
  if (frameUrl.origin === location.origin) {
    throw new CardDetailsError({
      code: 'REVEAL_FRAME_SAME_ORIGIN',
      detail: `The reveal frame must be served from another origin than the page (${location.origin}).`,
    });
  }
  // The frame learns whom to answer from its URL, and checks it against the sender of every message.
  frameUrl.hash = new URLSearchParams({ parent: location.origin }).toString();
  return frameUrl;
}

/** The fields to show and their style, checked (REVEAL_OPTIONS_INVALID when either is not what the frame takes). */
function checkedLook(options: MountCardRevealOptions): { fields: RevealField[]; style: RevealStyle } {
  const fields = [...(options.fields ?? REVEAL_FIELDS)];
  const style = { ...options.style };
  if (!fields.every((f) => (REVEAL_FIELDS as readonly string[]).includes(f)) || !isRevealStyle(style)) {
    throw new CardDetailsError({
      code: 'REVEAL_OPTIONS_INVALID',
      detail: `fields are some of ${REVEAL_FIELDS.join(', ')}; style values are plain CSS values without url().`,
    });
  }
  return { fields, style };
}

/** The iframe, not yet in the page: scripts allowed, but an opaque origin. */
function sandboxedFrame(frameUrl: URL, title: string | undefined): HTMLIFrameElement {
  const frame = document.createElement('iframe');
  frame.src = frameUrl.href;
  // Scripts, but no same-origin: the frame's document gets an opaque origin, out of reach of every other page.
  frame.setAttribute('sandbox', 'allow-scripts');
  frame.setAttribute('allow', 'clipboard-write');
  frame.title = title ?? 'Card details';
  frame.referrerPolicy = 'no-referrer';
  frame.style.border = '0';
  frame.style.width = '100%';
  return frame;
}
