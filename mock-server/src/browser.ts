/** card-issuing-sdk/mock/browser: placeholder until the mock issue lands. */
export function startBrowserMock(): never {
  throw new Error('card-issuing-sdk/mock/browser: not implemented yet');
}
