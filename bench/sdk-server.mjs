// The bare node:http server of `npm run bench:sdk`: answers every request with one fixed JSON body (given as the
// first argument), keep-alive, on a free loopback port it prints. A separate process, so that its work is not
// counted in the client's. No framework, no checks: the floor any client pays.
import { createServer } from 'node:http';

const body = Buffer.from(process.argv[2] ?? '{}');
const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    response.writeHead(200, {
      'content-type': 'application/json',
      'content-length': body.length,
      'x-request-id': 'req_bench',
    });
    response.end(body);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
process.stdin.on('end', () => process.exit(0)).resume();
