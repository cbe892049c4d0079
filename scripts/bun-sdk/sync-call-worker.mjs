// The thread behind `callSync` in `reference-server.mjs`: posts each call to the server host's
// control origin, hands the answer back on `port`, then wakes the caller blocked on `shared`.
import { parentPort, workerData } from 'node:worker_threads';

const { shared, port } = workerData;

parentPort.on('message', async ({ url, body }) => {
  let answer;
  try {
    const response = await fetch(url, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json' },
    });
    answer = await response.json();
  } catch (error) {
    answer = { error: { name: 'Error', message: `the reference server host did not answer (${error})` } };
  }
  port.postMessage(answer);
  Atomics.store(shared, 0, 1);
  Atomics.notify(shared, 0);
});
