/** card-issuing-mock: placeholder until the mock issue lands. */
process.stderr.write('card-issuing-mock: not implemented yet\n');
process.exitCode = 1;
