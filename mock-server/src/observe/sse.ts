/**
 * The event stream (`GET /__mock/events/stream`, server-sent events): every exchange of the journal
 * (`event: request`, a summary without bodies) and every domain event (`event: event`) of one tenant, as they
 * happen. `id:` is the sequence number, so a client that reconnects with `Last-Event-ID` gets what it missed
 * (as far as the rings still hold it). A comment every 15 s keeps proxies from closing an idle stream.
 * @module
 */
import type { ObservedMessage, Observer } from './observer';

/** How often an idle stream gets a keep-alive comment. */
export const HEARTBEAT_MS = 15_000;

function frame(message: ObservedMessage): string {
  const payload = message.kind === 'request' ? message.request : message.event;
  return `id: ${payload.seq}\nevent: ${message.kind}\ndata: ${JSON.stringify(payload)}\n\n`;
}

/** The `text/event-stream` body of a tenant's exchanges and events, from after `lastEventId` when given. */
export function eventStream(
  observer: Observer,
  tenant: string,
  options: { lastEventId?: number; signal?: AbortSignal } = {},
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let stop = (): void => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      let open = true;
      const send = (text: string) => {
        if (!open) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          stop();
        }
      };
      send('retry: 2000\n\n');
      if (options.lastEventId !== undefined) {
        const after = options.lastEventId;
        const missed: ObservedMessage[] = [
          ...observer
            .requestSummaries(tenant, { after })
            .map((request): ObservedMessage => ({ kind: 'request', request })),
          ...observer.events(tenant, { after }).map((event): ObservedMessage => ({ kind: 'event', event })),
        ].sort((a, b) => seqOf(a) - seqOf(b));
        for (const message of missed) send(frame(message));
      }
      send(`event: ready\ndata: ${JSON.stringify({ tenant })}\n\n`);
      const unsubscribe = observer.subscribe(tenant, (message) => send(frame(message)));
      const heartbeat = setInterval(() => send(': keep-alive\n\n'), HEARTBEAT_MS);
      // A timer must not keep a Node process alive on its own.
      (heartbeat as { unref?: () => void }).unref?.();
      stop = () => {
        if (!open) return;
        open = false;
        unsubscribe();
        clearInterval(heartbeat);
        try {
          controller.close();
        } catch {
          // Already closed by the reader.
        }
      };
      options.signal?.addEventListener('abort', () => stop(), { once: true });
    },
    cancel() {
      stop();
    },
  });
  return body;
}

function seqOf(message: ObservedMessage): number {
  return message.kind === 'request' ? message.request.seq : message.event.seq;
}
