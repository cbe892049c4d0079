/**
 * The work of a decoder thread: for each request body the request thread hands over, decode it
 * (`decodeRequest`), send its rows to the writer thread over the port it was given, and report
 * the outcome, then the writer's verdict, back to the request thread.
 * @module
 */
import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import { MalformedExportError } from '../otlp/malformed-export-error.js';
import { decodeRequest } from './decode-request.js';
import type { DecoderReply, DecoderRequest } from './decoder-messages.js';
import type { WriterReply, WriterRequest } from './sqlite-writer-worker.js';

const port = parentPort!;
const writer = (workerData as { writerPort: MessagePort }).writerPort;

writer.on('message', (reply: WriterReply) => {
  port.postMessage(reply satisfies DecoderReply);
});

port.on('message', (message: DecoderRequest) => {
  if (message.type === 'close') {
    writer.close();
    port.close();
    return;
  }
  const { id, signal, encoding, body } = message;
  try {
    const { outcome, batch } = decodeRequest(signal, encoding, body);
    port.postMessage({ type: 'decoded', id, outcome, stored: batch !== null } satisfies DecoderReply);
    if (batch !== null) {
      // The body goes on to the writer when rows point into it; this thread is done with it.
      const transfer = batch.source?.buffer instanceof ArrayBuffer ? [batch.source.buffer] : [];
      writer.postMessage({ type: 'write', id, batch } satisfies WriterRequest, transfer);
    }
  } catch (error) {
    const reply: DecoderReply =
      error instanceof MalformedExportError
        ? { type: 'malformed', id, message: error.message }
        : {
            type: 'failed',
            id,
            message: error instanceof Error ? `${error.name}: ${error.message}` : 'decoding failed',
          };
    port.postMessage(reply);
  }
});
