/**
 * 405 for a method a known path does not serve. Hono answers "not found" whenever no handler
 * matches the method and the path; for a path the route table knows, the right answer is
 * `405 Method Not Allowed` with `Allow` listing the methods it serves (RFC 9110, 15.5.6), so
 * `TRACE`, `DELETE` or `OPTIONS` on a route is told apart from a path that does not exist.
 * @module
 */
import { ApiError } from './api-error.js';

/** A route of the table: its method and its `{param}` path. */
export interface MethodAndPath {
  method: string;
  path: string;
}

function pathPattern(path: string): RegExp {
  const escaped = path
    .split(/\{\w+\}/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^/]+');
  return new RegExp(`^${escaped}$`);
}

/**
 * The methods each path of `routes` serves: a function answering, for a request path, the value
 * of `Allow` (`HEAD` with `GET`, as Hono answers `HEAD` with the `GET` route), or `undefined`
 * when no route has that path.
 */
export function allowedMethods(routes: Iterable<MethodAndPath>): (pathname: string) => string | undefined {
  const byPath = new Map<string, { pattern: RegExp; methods: Set<string> }>();
  for (const { method, path } of routes) {
    const entry = byPath.get(path) ?? { pattern: pathPattern(path), methods: new Set<string>() };
    entry.methods.add(method);
    if (method === 'GET') entry.methods.add('HEAD');
    byPath.set(path, entry);
  }
  const entries = [...byPath.values()];
  return (pathname) => {
    const methods = new Set<string>();
    for (const entry of entries) {
      if (entry.pattern.test(pathname)) for (const method of entry.methods) methods.add(method);
    }
    return methods.size === 0 ? undefined : [...methods].sort().join(', ');
  };
}

/** The 405 answer for a request whose path serves only `allow`. */
export function methodNotAllowed(method: string, allow: string): ApiError {
  return new ApiError(
    405,
    'method_not_allowed',
    `This path does not serve ${/^[A-Z]{1,16}$/.test(method) ? method : 'this method'}; it serves ${allow}.`,
    { allow },
  );
}
