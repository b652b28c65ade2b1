/** card-issuing-sdk/mock: placeholder until the mock issue lands. */
export function createMock(): never {
  throw new Error('card-issuing-sdk/mock: not implemented yet');
}
