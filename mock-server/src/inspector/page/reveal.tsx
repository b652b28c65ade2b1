/**
 * A card's details in the inspector, shown the way an app shows them: in the SDK's reveal frame
 * (`card-issuing-sdk/reveal`), served by this mock at `/__mock/reveal` under its other loopback name. The frame makes
 * the key; this page fetches the details encrypted to it from the control API and passes the JWE on unread.
 */
import { mountCardReveal } from 'card-issuing-sdk/reveal';
import { useEffect, useRef, useState } from 'preact/hooks';
import { revealFrameOrigin } from '../reveal-origin';
import { controlUrl } from './api';

/** The encrypted details of a card from the control API (a problem+json is an error naming its code). */
async function encryptedDetails(cardId: string, publicKey: string): Promise<string> {
  const response = await fetch(controlUrl(`/cards/${cardId}/details`, { publicKey }));
  const body = (await response.json()) as { encryptedDetails?: string; code?: string; detail?: string };
  if (!response.ok || typeof body.encryptedDetails !== 'string')
    throw new Error(`${body.code ?? `HTTP_${response.status}`}: ${body.detail ?? response.statusText}`);
  return body.encryptedDetails;
}

/** "Show details" for an ACTIVE card: the reveal frame below the button while open. */
export function RevealCard({ cardId, card }: { cardId: string; card: string }) {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!open || !element) return;
    const origin = revealFrameOrigin(location);
    if (!origin) {
      setError('Card details show in the reveal frame, which needs the inspector opened on localhost or 127.0.0.1.');
      return;
    }
    const reveal = mountCardReveal(element, {
      frameUrl: `${origin}/__mock/reveal`,
      fetchEncrypted: (publicKey) => encryptedDetails(cardId, publicKey),
      title: `Details of ${card}`,
    });
    reveal.revealed.catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)));
    return () => reveal.destroy();
  }, [open, cardId, card]);
  return (
    <div class="reveal">
      <button
        type="button"
        class="btn"
        aria-expanded={open}
        aria-label={`${open ? 'Hide' : 'Show'} details of ${card}`}
        onClick={() => {
          setError(null);
          setOpen(!open);
        }}
      >
        {open ? 'Hide details' : 'Show details'}
      </button>
      {error && (
        <p class="notice notice-bad" role="alert">
          {error}
        </p>
      )}
      {open && <div ref={box} class="reveal-frame" data-reveal={cardId} />}
    </div>
  );
}
