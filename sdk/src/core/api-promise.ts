/**
 * What every method returns: a promise of the parsed body that also gives the response's facts
 * (`.withResponse()`), as Stainless SDKs do.
 * @module
 */

/** A parsed body with the facts of its response, from {@link ApiPromise.withResponse}. */
export interface ApiResponse<T> {
  data: T;
  status: number;
  headers: Headers;
  /** `X-Request-Id`; quote it when asking for support. */
  requestId: string | undefined;
}

/**
 * What every method returns: a promise of the parsed, typed body, with `.withResponse()` for the status, headers
 * and request id as well. The request is sent at once, whether or not anyone awaits it.
 */
export class ApiPromise<T> extends Promise<T> {
  readonly #response: Promise<ApiResponse<T>>;
  #data: Promise<T> | undefined;

  /** @internal */
  constructor(response: Promise<ApiResponse<T>>) {
    super((resolve) => resolve(undefined as T));
    this.#response = response;
  }

  // then/catch/finally derive plain promises, not ApiPromises.
  static override get [Symbol.species](): PromiseConstructor {
    return Promise;
  }

  /** The parsed body together with `status`, `headers` and `requestId`. */
  withResponse(): Promise<ApiResponse<T>> {
    return this.#response;
  }

  // The body promise is made on first use, so a caller who only uses withResponse() gets no unhandled rejection.
  #body(): Promise<T> {
    this.#data ??= this.#response.then((r) => r.data);
    return this.#data;
  }

  // biome-ignore lint/suspicious/noThenProperty: an ApiPromise is a Promise of the parsed body; `await` calls this.
  override then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#body().then(onfulfilled, onrejected);
  }

  override catch<R = never>(onrejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<T | R> {
    return this.#body().catch(onrejected);
  }

  override finally(onfinally?: (() => void) | null): Promise<T> {
    return this.#body().finally(onfinally);
  }
}
