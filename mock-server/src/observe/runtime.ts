/**
 * The runtime as the layers above the pipeline see it: with the mock's {@link Observer} (journal, event log,
 * subscribers), which the pipeline knows only as a {@link RuntimeObserver}.
 * @module
 */
import { clockNow } from '../clock';
import type { MockRuntime } from '../pipeline/runtime';
import type { TenantRegistry } from '../store';
import { Observer, type ObserveOptions } from './observer';

/** A runtime whose observer is the mock's Observer. */
export type ObservedRuntime = MockRuntime<Observer>;

/** The observer of the tenants of `tenants`: their secrets redacted, their virtual clocks read. */
export function observerOf(tenants: TenantRegistry, options?: ObserveOptions): Observer {
  return new Observer(
    {
      secrets: () => tenants.all().map((t) => t.apiSecret),
      virtualNow: (apiKey) => clockNow((tenants.get(apiKey) ?? tenants.default).state.clock),
    },
    options,
  );
}
