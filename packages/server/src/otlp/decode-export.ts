/**
 * The walk shared by the trace and log decoders: resource → scope → records, with each record
 * decoded alone so that one bad record is refused (and counted with its reason) while the rest
 * of the request is kept.
 * @module
 */
import { InvalidRecordError, RoundedIntegerError, readString, readUint32 } from './any-value.js';
import { ingestAttributes } from './ingest-values.js';
import { MalformedExportError } from './malformed-export-error.js';
import type { DecodedExport, ResourceRecord, ScopeGroup, ScopeRecord } from './model.js';

/** Names of the envelope's nested lists for one signal. */
export interface EnvelopeKeys {
  resources: string;
  scopes: string;
  records: string;
}

function list(value: unknown, what: string): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new MalformedExportError(`${what} must be an array`);
  return value;
}

function object(value: unknown, what: string): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value))
    throw new MalformedExportError(`${what} must be an object`);
  return value as Record<string, unknown>;
}

function readResource(value: unknown, schemaUrl: unknown): ResourceRecord {
  const resource = object(value, 'resource');
  return {
    attributes: ingestAttributes(resource.attributes),
    droppedAttributesCount: readUint32(resource.droppedAttributesCount, 'droppedAttributesCount'),
    schemaUrl: readString(schemaUrl, 'schemaUrl'),
  };
}

function readScope(value: unknown, schemaUrl: unknown): ScopeRecord {
  const scope = object(value, 'scope');
  return {
    name: readString(scope.name, 'scope name'),
    version: readString(scope.version, 'scope version'),
    attributes: ingestAttributes(scope.attributes),
    droppedAttributesCount: readUint32(scope.droppedAttributesCount, 'droppedAttributesCount'),
    schemaUrl: readString(schemaUrl, 'schemaUrl'),
  };
}

function count(counts: Map<string, number>, reason: string, n: number): void {
  counts.set(reason, (counts.get(reason) ?? 0) + n);
}

/**
 * Decodes an export request. `decodeRecord` returns the stored record or a refusal reason;
 * `warningOf` tells what is worth a warning about an accepted record (stored as sent). A resource
 * or scope that is invalid refuses all of its records.
 */
export function decodeExport<T>(
  body: unknown,
  keys: EnvelopeKeys,
  decodeRecord: (record: Record<string, unknown>) => T | string,
  warningOf: (record: T) => string | undefined = () => undefined,
): DecodedExport<T> {
  const root = object(body, 'request');
  const groups: ScopeGroup<T>[] = [];
  const reasons = new Map<string, number>();
  const warnings = new Map<string, number>();
  let accepted = 0;
  let rejected = 0;
  let roundedIntegers = false;
  const refuse = (reason: string, n: number, error?: unknown) => {
    if (error instanceof RoundedIntegerError) roundedIntegers = true;
    count(reasons, reason, n);
  };
  for (const rawResource of list(root[keys.resources], keys.resources)) {
    const resourceEntry = object(rawResource, keys.resources);
    const scopeEntries = list(resourceEntry[keys.scopes], keys.scopes).map((s) => object(s, keys.scopes));
    let resource: ResourceRecord | undefined;
    try {
      resource = readResource(resourceEntry.resource, resourceEntry.schemaUrl);
    } catch (error) {
      if (!(error instanceof InvalidRecordError)) throw error;
      const n = scopeEntries.reduce((sum, s) => sum + list(s[keys.records], keys.records).length, 0);
      rejected += n;
      if (n > 0) refuse(`invalid resource: ${error.message}`, n, error);
      continue;
    }
    for (const scopeEntry of scopeEntries) {
      const rawRecords = list(scopeEntry[keys.records], keys.records);
      let scope: ScopeRecord;
      try {
        scope = readScope(scopeEntry.scope, scopeEntry.schemaUrl);
      } catch (error) {
        if (!(error instanceof InvalidRecordError)) throw error;
        rejected += rawRecords.length;
        if (rawRecords.length > 0) refuse(`invalid scope: ${error.message}`, rawRecords.length, error);
        continue;
      }
      const records: T[] = [];
      for (const raw of rawRecords) {
        let outcome: T | string;
        let failure: unknown;
        if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
          outcome = 'record is not an object';
        } else {
          try {
            outcome = decodeRecord(raw as Record<string, unknown>);
          } catch (error) {
            if (!(error instanceof InvalidRecordError)) throw error;
            outcome = error.message;
            failure = error;
          }
        }
        if (typeof outcome === 'string') {
          rejected++;
          refuse(outcome, 1, failure);
        } else {
          accepted++;
          records.push(outcome);
          const warning = warningOf(outcome);
          if (warning !== undefined) count(warnings, warning, 1);
        }
      }
      if (records.length > 0) groups.push({ resource, scope, records });
    }
  }
  return { groups, accepted, rejected, reasons, warnings, roundedIntegers };
}

function listed(counts: Iterable<[string, number]>): string {
  return [...counts].map(([reason, n]) => `${reason} (${n})`).join(', ');
}

/**
 * A short, content-free summary of refusal reasons and warnings for
 * `partialSuccess.errorMessage`, e.g. `2 spans rejected: invalid trace ID (2); 1 spans stored
 * with warnings: span ends before it starts (1)`.
 */
export function describeOutcome(
  what: string,
  rejected: number,
  reasons: Iterable<[string, number]>,
  warnings: Iterable<[string, number]>,
): string {
  const parts: string[] = [];
  if (rejected > 0) parts.push(`${rejected} ${what} rejected: ${listed(reasons)}`);
  const warned = [...warnings];
  if (warned.length > 0) {
    const n = warned.reduce((sum, [, k]) => sum + k, 0);
    parts.push(`${n} ${what} stored with warnings: ${listed(warned)}`);
  }
  return parts.join('; ');
}
