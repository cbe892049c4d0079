/**
 * The content policy of the export path (spec "Content policy rules" 1 to 3): the redactor runs
 * first on every string it covers, then, with capture off, recognized content attributes, log
 * bodies, status messages and exception text are removed.
 *
 * The policy returns copies and never mutates its input. A copy owns its top-level attribute maps
 * and its `events` and `links` arrays; nested values, the span context, the instrumentation scope
 * and (unless the redactor changed it) the resource are shared with the input, which keeps the
 * identity that OTLP serializers group records by. Dropped-attribute counts are left as they were:
 * removal by policy is not a limit drop.
 * @module
 */

import type { Attributes, Link, SpanStatus } from '@opentelemetry/api';
import type { Resource } from '@opentelemetry/resources';
import { resourceFromAttributes } from '@opentelemetry/resources';
import type { ReadableLogRecord } from '@opentelemetry/sdk-logs';
import type { ReadableSpan, TimedEvent } from '@opentelemetry/sdk-trace';
import { isContentAttribute } from '@svc-run/conventions';
import type { Redactor } from '../options/svc-options.js';
import { redactAttributes, redactString, redactValue } from './redact-values.js';

/** Options of {@link createContentPolicy}, from the client options of the same names. */
export interface ContentPolicyOptions {
  /** False removes recognized content before export. */
  captureContent: boolean;
  /** Runs first on the strings of attributes, resources, events, links, status and log bodies. */
  redact?: Redactor | undefined;
}

/** Applies the content policy to one record; both methods may throw `RecordRejectedError`. */
export interface ContentPolicy {
  /**
   * A copy of `span` as it may be exported. `attributes`, when given, are the span's attribute
   * values captured when it ended (a map the caller owns and hands over: kept as the copy's own
   * when the policy changes nothing); else `span.attributes` are read.
   */
  span(span: ReadableSpan, attributes?: Attributes): ReadableSpan;
  /** A copy of `record` as it may be exported. */
  logRecord(record: ReadableLogRecord): ReadableLogRecord;
}

/**
 * Creates the content policy for one client.
 *
 * A redacted resource is computed once per resource object and reused, so the callback runs once
 * per resource rather than once per record (a failure is not remembered: the next record retries).
 * @example
 * const policy = createContentPolicy({ captureContent: false });
 * const exported = policy.span(readableSpan); // no gen_ai.input.messages, no status message
 */
export function createContentPolicy(options: ContentPolicyOptions): ContentPolicy {
  const { redact } = options;
  const strip = !options.captureContent;
  const resources = new WeakMap<Resource, Resource>();

  const attributesOf = (attributes: Attributes, prefix: string): Attributes => {
    const result: Attributes = {};
    for (const key of Object.keys(attributes)) {
      const value =
        redact === undefined ? attributes[key] : redactValue(attributes[key], prefix + key, redact);
      if (!strip || !isContentAttribute(key)) result[key] = value;
    }
    return result;
  };

  const resourceOf = (resource: Resource): Resource => {
    if (redact === undefined) return resource;
    const cached = resources.get(resource);
    if (cached !== undefined) return cached;
    const attributes = redactAttributes(resource.attributes, 'resource.', redact);
    const result =
      attributes === resource.attributes
        ? resource
        : resourceFromAttributes(attributes, { schemaUrl: resource.schemaUrl });
    if (resource.asyncAttributesPending !== true) resources.set(resource, result);
    return result;
  };

  const statusOf = (status: SpanStatus): SpanStatus => {
    const message =
      status.message === undefined || redact === undefined
        ? status.message
        : redactString(status.message, 'status.message', redact);
    return strip || message === undefined ? { code: status.code } : { code: status.code, message };
  };

  const eventOf = (event: TimedEvent, index: number): TimedEvent =>
    event.attributes === undefined
      ? { ...event }
      : { ...event, attributes: attributesOf(event.attributes, `events[${index}].`) };

  const linkOf = (link: Link, index: number): Link =>
    link.attributes === undefined
      ? { ...link }
      : { ...link, attributes: attributesOf(link.attributes, `links[${index}].`) };

  return {
    span(span, captured) {
      // A captured map is the caller's own copy: with nothing to redact or strip it is kept.
      const attributes =
        captured !== undefined && redact === undefined && !strip
          ? captured
          : attributesOf(captured ?? span.attributes, 'attributes.');
      const events = span.events.map(eventOf);
      const links = span.links.map(linkOf);
      const status = statusOf(span.status);
      const resource = resourceOf(span.resource);
      const spanContext = span.spanContext();
      return {
        name: span.name,
        kind: span.kind,
        spanContext: () => spanContext,
        parentSpanContext: span.parentSpanContext,
        startTime: span.startTime,
        endTime: span.endTime,
        status,
        attributes,
        links,
        events,
        duration: span.duration,
        ended: span.ended,
        resource,
        instrumentationScope: span.instrumentationScope,
        droppedAttributesCount: span.droppedAttributesCount,
        droppedEventsCount: span.droppedEventsCount,
        droppedLinksCount: span.droppedLinksCount,
      };
    },

    logRecord(record) {
      const attributes = attributesOf(record.attributes, 'attributes.');
      const body =
        record.body === undefined || redact === undefined
          ? record.body
          : redactValue(record.body, 'body', redact);
      const resource = resourceOf(record.resource);
      return {
        hrTime: record.hrTime,
        hrTimeObserved: record.hrTimeObserved,
        spanContext: record.spanContext,
        severityText: record.severityText,
        severityNumber: record.severityNumber,
        body: strip ? undefined : body,
        eventName: record.eventName,
        resource,
        instrumentationScope: record.instrumentationScope,
        attributes,
        droppedAttributesCount: record.droppedAttributesCount,
      };
    },
  };
}
