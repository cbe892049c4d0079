/**
 * How the viewer writes sizes, durations and times. Sizes in binary units (KiB, MiB, GiB, as the
 * spec's limits are written), times in UTC (the page is rendered on the server, which does not
 * know the reader's time zone).
 * @module
 */

const UNITS = ['KiB', 'MiB', 'GiB', 'TiB'];

/** `512 B`, `1.5 KiB`, `48 MiB`, … */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  let value = bytes;
  let unit = -1;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value >= 100 ? Math.round(value) : value.toFixed(1).replace(/\.0$/, '')} ${UNITS[unit]}`;
}

/** A whole byte count with thousands separators: `2,000,000 bytes`. */
export function exactBytes(bytes: number): string {
  return `${bytes.toLocaleString('en-US')} ${bytes === 1 ? 'byte' : 'bytes'}`;
}

/** `420 µs`, `12.3 ms`, `1.25 s`, `2 min 3 s`. */
export function formatDuration(ms: number): string {
  if (ms < 1) return `${Math.round(ms * 1000)} µs`;
  if (ms < 10) return `${ms.toFixed(2)} ms`;
  if (ms < 1000) return `${ms < 100 ? ms.toFixed(1) : Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(s < 10 ? 2 : 1)} s`;
  const minutes = Math.floor(s / 60);
  if (minutes < 60) return `${minutes} min ${Math.round(s - minutes * 60)} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** `2025-11-21 16:00:00.123 UTC` from an ISO 8601 time. */
export function formatTime(iso: string | null): string {
  if (iso === null) return '—';
  return `${iso.replace('T', ' ').replace(/Z$/, '')} UTC`;
}

/** A whole number with thousands separators. */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** The start of a SHA-256 shown in lists (the whole digest is in the element's title and text). */
export function shortSha(sha256: string): string {
  return sha256.slice(0, 12);
}
