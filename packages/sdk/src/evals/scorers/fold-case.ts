/**
 * Case folding for case-insensitive inclusion: the shared fold of `@svc-run/conventions` (the
 * server's scenario output checks fold the same way).
 * @module
 */

export { foldCase } from '@svc-run/conventions';
