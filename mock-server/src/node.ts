/** card-issuing-sdk/mock/node: placeholder until the mock issue lands. */
export function startMockServer(): never {
  throw new Error('card-issuing-sdk/mock/node: not implemented yet');
}
