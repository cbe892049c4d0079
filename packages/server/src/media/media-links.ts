/**
 * Upload and download links: URLs on the server's own origin that need no `Authorization`,
 * because they carry their own expiry and an HMAC-SHA256 signature over what they allow. An
 * upload link names a reservation; a download link names a file, the trace holding it and the
 * file name to give it. A link signed for one purpose is not valid for the other.
 * @module
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Path of the upload route; `{reservationId}` is the reservation's ID. */
export const UPLOAD_PATH = '/api/v1/blobs/uploads/{reservationId}';
/** Path of the download route; `{sha256}` names the file. */
export const DOWNLOAD_PATH = '/api/v1/blobs/downloads/{sha256}';

/** The verdict on a presented link. */
export type LinkCheck = 'valid' | 'forbidden' | 'expired';

/** What a download link allows. */
export interface DownloadGrant {
  sha256: string;
  /** 32 lowercase hex. */
  traceId: string;
  /** The file name for `Content-Disposition`, or `null`. */
  name: string | null;
  /**
   * Set for a file the trace does not hold but a record of this span (or a log record correlated
   * with it) holds inline: the download reads the bytes from that record.
   */
  spanId?: string;
}

type Purpose = 'upload' | 'download';

const EXPIRES = /^\d{1,16}$/;
const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;

/** Signs and checks the service's upload and download links. */
export class MediaLinks {
  readonly #secret: Buffer;
  readonly #now: () => number;

  /** `secret` is the link-signing key (see `loadLinkSecret`); `now` the clock in ms. */
  constructor(secret: Buffer, now: () => number = Date.now) {
    this.#secret = secret;
    this.#now = now;
  }

  /** The upload (PUT) URL of reservation `reservationId`, valid until `expiresAt` (ms). */
  uploadUrl(origin: string, reservationId: string, expiresAt: number): string {
    const path = UPLOAD_PATH.replace('{reservationId}', encodeURIComponent(reservationId));
    const query = new URLSearchParams({ expires: String(expiresAt) });
    query.set('signature', this.#sign('upload', expiresAt, [reservationId]));
    return `${origin}${path}?${query}`;
  }

  /** Checks the query of an upload URL for reservation `reservationId`. */
  checkUpload(reservationId: string, query: URLSearchParams): LinkCheck {
    return this.#check('upload', [reservationId], query);
  }

  /** The download URL of `grant`, valid until `expiresAt` (ms). */
  downloadUrl(origin: string, grant: DownloadGrant, expiresAt: number): string {
    const path = DOWNLOAD_PATH.replace('{sha256}', grant.sha256);
    const query = new URLSearchParams({ traceId: grant.traceId });
    if (grant.name !== null) query.set('name', grant.name);
    if (grant.spanId !== undefined) query.set('spanId', grant.spanId);
    query.set('expires', String(expiresAt));
    query.set('signature', this.#sign('download', expiresAt, downloadFields(grant)));
    return `${origin}${path}?${query}`;
  }

  /** Checks a download URL for file `sha256`; the grant is what a valid link allows. */
  checkDownload(sha256: string, query: URLSearchParams): { check: LinkCheck; grant: DownloadGrant } {
    const spanId = query.get('spanId');
    const grant: DownloadGrant = {
      sha256,
      traceId: query.get('traceId') ?? '',
      name: query.get('name'),
      ...(spanId === null ? {} : { spanId }),
    };
    return { check: this.#check('download', downloadFields(grant), query), grant };
  }

  #sign(purpose: Purpose, expiresAt: number, fields: readonly string[]): string {
    return createHmac('sha256', this.#secret)
      .update(JSON.stringify([purpose, expiresAt, ...fields]))
      .digest('base64url');
  }

  /** The signature is checked first: an expired link is only reported as such when it is genuine. */
  #check(purpose: Purpose, fields: readonly string[], query: URLSearchParams): LinkCheck {
    const expires = query.get('expires') ?? '';
    const signature = query.get('signature') ?? '';
    if (!EXPIRES.test(expires) || !SIGNATURE.test(signature)) return 'forbidden';
    const expiresAt = Number(expires);
    const expected = Buffer.from(this.#sign(purpose, expiresAt, fields), 'base64url');
    if (!timingSafeEqual(expected, Buffer.from(signature, 'base64url'))) return 'forbidden';
    return this.#now() >= expiresAt ? 'expired' : 'valid';
  }
}

function downloadFields(grant: DownloadGrant): string[] {
  const fields = [grant.sha256, grant.traceId, grant.name === null ? '' : `name:${grant.name}`];
  // Only links to inline files carry a span: the other links' signatures stay as they were.
  return grant.spanId === undefined ? fields : [...fields, `span:${grant.spanId}`];
}
