/**
 * The `Content-Disposition` of a downloaded file (RFC 6266): always `attachment`, so a file is
 * never rendered as a page of the service's origin; with the file name when it is known, as an
 * ASCII fallback and as UTF-8 (`filename*`).
 * @module
 */

/** `attachment`, with `filename` and `filename*` when `name` is given (a valid file name). */
export function contentDisposition(name: string | null): string {
  if (name === null) return 'attachment';
  const fallback = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
