/**
 * `card-issuing-mock/node`: the mock as a real HTTP server, for front-end dev servers, other languages and
 * CI jobs that talk HTTP. It serves the request pipeline of `createMock` (from `card-issuing-mock`) straight from node:http (no msw
 * routing on the way, HMAC with node:crypto), so the server, the in-process mock and the service worker share one
 * implementation.
 *
 * ```ts
 * import { startMockServer } from 'card-issuing-mock/node';
 * const server = await startMockServer({ port: 0, stateFile: '.mock-state.db' });
 * // server.url → 'http://127.0.0.1:53127'; server.mock is the control API
 * await server.close();
 * ```
 * @module card-issuing-mock/node
 */
export { startMockServer, type MockServer, type StartMockServerOptions } from './node/start.js';
export { StateFileError } from './node/state-file/index.js';
export { loadScenarioFile } from './node/scenario-file.js';
