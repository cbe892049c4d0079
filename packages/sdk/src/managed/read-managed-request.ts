/**
 * Reads and checks a request the service sent: the method, the body (at most 64 KiB, read as
 * sent), the signature, then the body's fields. Nothing is claimed or run before all pass.
 * @module
 */
import { errorResponse } from './managed-responses.js';
import { checkManagedSignature, SIGNATURE_HEADER } from './managed-signature.js';

/** Largest request body the handler reads. */
export const MAX_MANAGED_REQUEST_BYTES = 64 * 1024;

/** The `type` of the body the service sends. */
export const MANAGED_REQUEST_TYPE = 'svc.managed.execution';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A checked request: the execution to run, as the service named it. */
export interface ManagedRequest {
  executionId: string;
  experimentId: string | undefined;
  caseId: string | undefined;
}

async function readBody(request: Request): Promise<string | undefined> {
  if (request.body === null) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_MANAGED_REQUEST_BYTES) {
      // Cancelling a body already refused: a failure to cancel changes no answer.
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

const UNAUTHORIZED: Record<string, string> = {
  missing:
    'The request carries no Svc-Signature header: only the service, signing with the machine credential, may call this endpoint.',
  malformed:
    'The Svc-Signature header is malformed: only the service, signing with the machine credential, may call this endpoint.',
  mismatch: 'The request is not signed with this machine credential.',
  stale: "The request's signature is more than five minutes old (or ahead of this clock): it is refused.",
};

/** The checked request, or the answer refusing it. */
export async function readManagedRequest(
  request: Request,
  signingKey: Buffer,
): Promise<ManagedRequest | Response> {
  if (request.method !== 'POST') {
    return errorResponse(
      405,
      'method_not_allowed',
      'The managed target takes POST requests from the service.',
      {
        allow: 'POST',
      },
    );
  }
  const body = await readBody(request);
  if (body === undefined) {
    return errorResponse(
      413,
      'payload_too_large',
      `The request body is over ${MAX_MANAGED_REQUEST_BYTES} bytes.`,
    );
  }
  const verdict = checkManagedSignature(signingKey, request.headers.get(SIGNATURE_HEADER), body, Date.now());
  if (verdict !== 'valid') return errorResponse(401, 'unauthorized', UNAUTHORIZED[verdict]!);
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    // A signed body that is not JSON: the caller's error, answered 400.
    return errorResponse(400, 'invalid_request', 'The request body is not JSON.');
  }
  const fields = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as Record<string, unknown>;
  if (
    fields.type !== MANAGED_REQUEST_TYPE ||
    typeof fields.executionId !== 'string' ||
    !UUID.test(fields.executionId)
  ) {
    return errorResponse(
      400,
      'invalid_request',
      `The request body must be { type: "${MANAGED_REQUEST_TYPE}", executionId, … } with executionId a lowercase UUID.`,
    );
  }
  const optionalId = (value: unknown) => (typeof value === 'string' && UUID.test(value) ? value : undefined);
  return {
    executionId: fields.executionId,
    experimentId: optionalId(fields.experimentId),
    caseId: optionalId(fields.caseId),
  };
}
