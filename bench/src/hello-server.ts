/**
 * The yardstick of the HTTP throughput benchmark: a bare express app that
 * answers `{ "data": "hello" }` on GET /, on 127.0.0.1 and the port given as
 * the first argument.
 */
import express from 'express';

const port = Number(process.argv[2]);
express()
  .get('/', (_request, response) => {
    response.json({ data: 'hello' });
  })
  .listen(port, '127.0.0.1');

// Forked by the bench: ends with it, also when the bench was killed.
process.on('disconnect', () => process.exit(0));
