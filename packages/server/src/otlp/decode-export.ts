/**
 * The walk shared by the trace and log decoders: resource → scope → records, with each record
 * decoded alone so that one bad record is refused (and counted with its reason) while the rest
 * of the request is kept.
 * @module
 */
import { InvalidRecordError, normalizeKeyValues, readString, readUint32 } from './any-value.js';
import type { DecodedExport, ResourceRecord, ScopeGroup, ScopeRecord } from './model.js';

/** Thrown when a request body is not an OTLP export request at all; answered 400. */
export class MalformedExportError extends Error {
  override readonly name = 'MalformedExportError';
}

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
    attributes: normalizeKeyValues(resource.attributes),
    droppedAttributesCount: readUint32(resource.droppedAttributesCount, 'droppedAttributesCount'),
    schemaUrl: readString(schemaUrl, 'schemaUrl'),
  };
}

function readScope(value: unknown, schemaUrl: unknown): ScopeRecord {
  const scope = object(value, 'scope');
  return {
    name: readString(scope.name, 'scope name'),
    version: readString(scope.version, 'scope version'),
    attributes: normalizeKeyValues(scope.attributes),
    droppedAttributesCount: readUint32(scope.droppedAttributesCount, 'droppedAttributesCount'),
    schemaUrl: readString(schemaUrl, 'schemaUrl'),
  };
}

function refuse(reasons: Map<string, number>, reason: string, count: number): void {
  reasons.set(reason, (reasons.get(reason) ?? 0) + count);
}

/**
 * Decodes an export request. `decodeRecord` returns the stored record or a refusal reason.
 * A resource or scope that is invalid refuses all of its records.
 */
export function decodeExport<T>(
  body: unknown,
  keys: EnvelopeKeys,
  decodeRecord: (record: Record<string, unknown>) => T | string,
): DecodedExport<T> {
  const root = object(body, 'request');
  const groups: ScopeGroup<T>[] = [];
  const reasons = new Map<string, number>();
  let accepted = 0;
  let rejected = 0;
  for (const rawResource of list(root[keys.resources], keys.resources)) {
    const resourceEntry = object(rawResource, keys.resources);
    const scopeEntries = list(resourceEntry[keys.scopes], keys.scopes).map((s) => object(s, keys.scopes));
    let resource: ResourceRecord | undefined;
    try {
      resource = readResource(resourceEntry.resource, resourceEntry.schemaUrl);
    } catch (error) {
      if (!(error instanceof InvalidRecordError)) throw error;
      const count = scopeEntries.reduce((n, s) => n + list(s[keys.records], keys.records).length, 0);
      rejected += count;
      if (count > 0) refuse(reasons, `invalid resource: ${error.message}`, count);
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
        if (rawRecords.length > 0) refuse(reasons, `invalid scope: ${error.message}`, rawRecords.length);
        continue;
      }
      const records: T[] = [];
      for (const raw of rawRecords) {
        let outcome: T | string;
        if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
          outcome = 'record is not an object';
        } else {
          try {
            outcome = decodeRecord(raw as Record<string, unknown>);
          } catch (error) {
            if (!(error instanceof InvalidRecordError)) throw error;
            outcome = error.message;
          }
        }
        if (typeof outcome === 'string') {
          rejected++;
          refuse(reasons, outcome, 1);
        } else {
          accepted++;
          records.push(outcome);
        }
      }
      if (records.length > 0) groups.push({ resource, scope, records });
    }
  }
  return { groups, accepted, rejected, reasons };
}

/** A short, content-free summary of refusal reasons for `partialSuccess.errorMessage`. */
export function describeRefusals(
  what: string,
  rejected: number,
  reasons: Iterable<[string, number]>,
): string {
  const parts = [...reasons].map(([reason, count]) => `${reason} (${count})`);
  return `${rejected} ${what} rejected: ${parts.join(', ')}`;
}
