/**
 * Where a value being read sits: its attribute (or `body`), its JSON pointer from the attribute's
 * root, and its depth (the pointer's token count, which also counts the JSON nesting used, so
 * that a string holding JSON is parsed within what is left of the 32 levels).
 * @module
 */

import type { ValueLocation } from '../message-types.js';
import { escapeToken } from './json-pointer.js';

/** A place in a recorded value. */
export interface Site {
  readonly attribute: string;
  readonly pointer: string;
  readonly depth: number;
}

/** Files (and parts) more than this many levels below a value's root are left as recorded. */
export const MAX_PART_DEPTH = 10;

/** The root of attribute `attribute`'s value. */
export function rootSite(attribute: string): Site {
  return { attribute, pointer: '', depth: 0 };
}

/** The site of member or item `token` of the value at `site`. */
export function childSite(site: Site, token: string | number): Site {
  return {
    attribute: site.attribute,
    pointer: `${site.pointer}/${escapeToken(token)}`,
    depth: site.depth + 1,
  };
}

/** The site at the end of `tokens` below `site`. */
export function descend(site: Site, tokens: readonly (string | number)[]): Site {
  let result = site;
  for (const token of tokens) result = childSite(result, token);
  return result;
}

/** `site` as a {@link ValueLocation}. */
export function locationOf(site: Site): ValueLocation {
  return { attribute: site.attribute, pointer: site.pointer };
}
