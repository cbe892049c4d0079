/**
 * `spanDetail`: everything the read model shows of one span: its attributes, events and links,
 * its resource and scope, a page of the log records correlated with it, its messages normalized across
 * conventions, every file (in the messages, then below them) with its state, remote references,
 * and large values, content gated (`includeContent`).
 * @module
 */
import type { ListedFile } from '../media/listed-files.js';
import type { FileState } from '../media/trace-files.js';
import type { AnyValue, KeyValue, LogRecordRecord } from '../otlp/model.js';
import { plainValue, valueType } from './attribute-values.js';
import { attributeViews, shownValue, utf8Size, valueSize } from './content-gate.js';
import type {
  MessageFile,
  MessagePart,
  NormalizedMessages,
  PlacedFile,
  RemoteReference,
} from './messages/message-types.js';
import type {
  LargeValueView,
  LogView,
  MessagePartView,
  MessageView,
  OutlineSpan,
  RemoteReferenceView,
  SpanDetail,
  SpanFileView,
  ValueLocation,
} from './read-model-types.js';
import type { StoredSpan } from './span-rows.js';

/**
 * Log records a span detail shows at most: a page of the span's log records in time order, from
 * `logsFrom` on; `omittedLogs` counts the records after the page.
 */
export const MAX_SHOWN_LOGS = 200;

const LARGE_VALUE_TYPES = new Set(['text/plain', 'application/json']);

/** What a span detail is built from. */
export interface SpanDetailSources {
  traceId: string;
  span: StoredSpan;
  /** The span's outline entry (kind, times, status, facts, counts). */
  outline: OutlineSpan;
  /** Every log record correlated with the span, in time order. */
  logs: readonly LogRecordRecord[];
  /** The index (in `logs`) of the first log record shown: an integer, 0 or more. */
  logsFrom: number;
  /** The files the span and its correlated log records list. */
  listed: readonly ListedFile[];
  /** The state of a file of the trace, by SHA-256. */
  stateOf(sha256: string): Promise<FileState>;
  normalizeSpan(attributes: readonly KeyValue[], listed: readonly ListedFile[]): NormalizedMessages;
  normalizeLog(
    eventName: string,
    body: AnyValue | undefined,
    attributes: readonly KeyValue[],
    listed: readonly ListedFile[],
  ): NormalizedMessages;
}

/** Builds the detail of one span, with the page of its log records from `sources.logsFrom` on. */
export async function spanDetail(sources: SpanDetailSources, includeContent: boolean): Promise<SpanDetail> {
  const { span } = sources;
  const states = new Map<string, Promise<FileState>>();
  const stateOf = (sha256: string) => {
    let state = states.get(sha256);
    if (state === undefined) {
      state = sources.stateOf(sha256);
      states.set(sha256, state);
    }
    return state;
  };
  const files = new Map<string, SpanFileView>();
  const fileView = async (
    file: MessageFile | ListedFile,
    where: SpanFileView['where'],
    form: 'digest' | 'inline',
  ): Promise<SpanFileView> => {
    const known = files.get(file.key);
    if (known !== undefined) return known;
    const name = file.name ?? undefined;
    const view: SpanFileView = {
      key: file.key,
      sha256: file.sha256,
      size: file.size,
      contentType: file.contentType,
      ...(name === undefined || name === null ? {} : { name }),
      state: await stateOf(file.sha256),
      form,
      where,
      ...('role' in file && file.role !== null ? { role: file.role } : {}),
    };
    files.set(file.key, view);
    return view;
  };
  const remoteReferences: SpanDetail['remoteReferences'] = [];
  const gate = new PartGate(includeContent, fileView, (reference, at, where) =>
    remoteReferences.push({ ...remoteView(reference, includeContent), where, at }),
  );

  const spanListed = sources.listed.filter((file) => file.record === 'span');
  const normalized = sources.normalizeSpan(span.attributes, spanListed);
  const messages = await gate.messages(normalized, 'message');
  for (const placed of normalized.belowMessages) await gate.placed(placed, 'metadata');

  const largeValues: LargeValueView[] = [];
  const largeKeys = new Set<string>();
  for (const file of spanListed) {
    const attribute = largeValueAttribute(file, span.attributes);
    if (attribute === undefined) continue;
    largeKeys.add(file.key);
    const prefix = attribute.value;
    largeValues.push({
      attribute: attribute.key,
      key: file.key,
      sha256: file.sha256,
      size: file.size,
      contentType: file.contentType,
      state: await stateOf(file.sha256),
      prefixSize: utf8Size(prefix),
      ...(includeContent ? { prefix } : {}),
    });
  }
  // Files the span lists outside its messages: `svc.file` events, attachments.
  for (const file of spanListed) {
    if (files.has(file.key) || largeKeys.has(file.key)) continue;
    await fileView(file, file.key.startsWith('event:svc.file:') ? 'event' : 'attachment', 'digest');
  }

  const { logsFrom } = sources;
  const shownLogs = sources.logs.slice(logsFrom, logsFrom + MAX_SHOWN_LOGS);
  const logs: LogView[] = [];
  for (const log of shownLogs) {
    const logListed = sources.listed.filter(
      (file) => file.record === 'log' && file.logTimeUnixNano === log.timeUnixNano,
    );
    const logMessages = sources.normalizeLog(log.eventName, log.body ?? undefined, log.attributes, logListed);
    const body = plainValue(log.body);
    const bodySize = log.body === null ? 0 : valueSize(body);
    const shownBody = includeContent && log.body !== null ? shownValue(body) : undefined;
    logs.push({
      time: isoTime(log.timeUnixNano),
      timeUnixNano: log.timeUnixNano,
      severityNumber: log.severityNumber,
      severityText: log.severityText,
      eventName: log.eventName,
      bodyType: valueType(log.body),
      bodySize,
      ...(shownBody === undefined
        ? log.body === null
          ? {}
          : { bodyWithheld: true as const }
        : { body: shownBody.value, ...(shownBody.truncated ? { bodyTruncated: true as const } : {}) }),
      attributes: attributeViews(
        log.attributes.filter((a) => a.key !== 'svc.blobs'),
        includeContent,
      ),
      messages: await gate.messages(logMessages, 'log'),
    });
    for (const placed of logMessages.belowMessages) await gate.placed(placed, 'log');
    for (const file of logListed) if (!files.has(file.key)) await fileView(file, 'log', 'digest');
  }

  // Shown elsewhere: messages, the file list (`svc.blobs`), and large values (their prefix).
  const read = new Set([...normalized.readAttributes, 'svc.blobs', ...largeValues.map((v) => v.attribute)]);
  const statusMessageSize = utf8Size(span.statusMessage);
  return {
    traceId: sources.traceId,
    span: {
      ...sources.outline,
      traceState: span.traceState,
      ...(includeContent && span.statusMessage !== '' ? { statusMessage: span.statusMessage } : {}),
      statusMessageSize,
      droppedAttributesCount: span.droppedAttributesCount,
      droppedEventsCount: span.droppedEventsCount,
      droppedLinksCount: span.droppedLinksCount,
    },
    contentIncluded: includeContent,
    resource: attributeViews(span.resource, includeContent),
    scope: {
      name: span.scope.name,
      version: span.scope.version,
      attributes: attributeViews(span.scope.attributes, includeContent),
    },
    messages,
    messageAttributes: normalized.readAttributes,
    files: [...files.values()],
    remoteReferences,
    largeValues,
    attributes: attributeViews(
      span.attributes.filter((a) => !read.has(a.key)),
      includeContent,
    ),
    events: span.events.map((event) => ({
      name: event.name,
      time: isoTime(event.timeUnixNano),
      timeUnixNano: event.timeUnixNano,
      attributes: attributeViews(event.attributes, includeContent),
      droppedAttributesCount: event.droppedAttributesCount,
    })),
    links: span.links.map((link) => ({
      traceId: link.traceId,
      spanId: link.spanId,
      traceState: link.traceState,
      attributes: attributeViews(link.attributes, includeContent),
    })),
    logsFrom,
    logs,
    omittedLogs: Math.max(0, sources.logs.length - logsFrom - shownLogs.length),
  };
}

/**
 * The attribute a `svc.blobs` entry uploaded whole: its key is `<attribute>#`, it is text or JSON,
 * and the attribute (a string) keeps less than the whole (its 16 KiB prefix).
 */
function largeValueAttribute(
  file: ListedFile,
  attributes: readonly KeyValue[],
): { key: string; value: string } | undefined {
  if (!file.key.endsWith('#') || !LARGE_VALUE_TYPES.has(file.contentType.split(';')[0]!.trim()))
    return undefined;
  const key = file.key.slice(0, -1);
  const attribute = attributes.find((a) => a.key === key);
  if (attribute === undefined || !('stringValue' in attribute.value)) return undefined;
  const value = attribute.value.stringValue;
  return utf8Size(value) < file.size ? { key, value } : undefined;
}

function isoTime(unixNano: string): string {
  return new Date(Number(BigInt(unixNano) / 1_000_000n)).toISOString();
}

function remoteView(reference: RemoteReference, includeContent: boolean): RemoteReferenceView {
  switch (reference.kind) {
    case 'uri':
      return {
        kind: 'uri',
        link: /^https?:/i.test(reference.uri),
        objectStore: reference.objectStore,
        ...(includeContent ? { uri: reference.uri } : { withheld: true }),
        ...(reference.mediaType === undefined ? {} : { mediaType: reference.mediaType }),
        ...(reference.name === undefined || !includeContent ? {} : { name: reference.name }),
      };
    case 'file_id':
      return {
        kind: 'file_id',
        ...(includeContent ? { fileId: reference.fileId } : { withheld: true }),
        ...(reference.provider === undefined ? {} : { provider: reference.provider }),
        ...(reference.mediaType === undefined ? {} : { mediaType: reference.mediaType }),
        ...(reference.name === undefined || !includeContent ? {} : { name: reference.name }),
      };
    case 'media_reference':
      // The platform's own opaque ID: nothing of the file itself.
      return {
        kind: 'media_reference',
        platform: reference.platform,
        id: reference.id,
        ...(reference.mediaType === undefined ? {} : { mediaType: reference.mediaType }),
      };
  }
}

/** Turns normalized parts into shown parts: files with their state, content gated. */
type FileViewOf = (
  file: MessageFile,
  where: SpanFileView['where'],
  form: 'digest' | 'inline',
) => Promise<SpanFileView>;
type NoteRemote = (
  reference: RemoteReference,
  at: ValueLocation,
  where: 'message' | 'metadata' | 'log',
) => void;

class PartGate {
  readonly includeContent: boolean;
  readonly fileView: FileViewOf;
  readonly remote: NoteRemote;

  constructor(includeContent: boolean, fileView: FileViewOf, remote: NoteRemote) {
    this.includeContent = includeContent;
    this.fileView = fileView;
    this.remote = remote;
  }

  async messages(normalized: NormalizedMessages, where: 'message' | 'log'): Promise<MessageView[]> {
    const views: MessageView[] = [];
    for (const message of normalized.messages) {
      views.push({
        direction: message.direction,
        role: message.role,
        ...(message.name === undefined ? {} : { name: message.name }),
        ...(message.finishReason === undefined ? {} : { finishReason: message.finishReason }),
        convention: message.convention,
        at: message.at,
        parts: await this.parts(message.parts, where),
      });
    }
    return views;
  }

  async placed(placed: PlacedFile, where: 'metadata' | 'log'): Promise<void> {
    if (placed.type === 'file') await this.fileView(placed.file, where, placed.file.form);
    else this.remote(placed.reference, placed.at, where);
  }

  async parts(parts: readonly MessagePart[], where: 'message' | 'log'): Promise<MessagePartView[]> {
    const views: MessagePartView[] = [];
    for (const part of parts) views.push(await this.part(part, where));
    return views;
  }

  async part(part: MessagePart, where: 'message' | 'log'): Promise<MessagePartView> {
    const withheld = !this.includeContent;
    switch (part.type) {
      case 'text':
      case 'reasoning': {
        const prefixOf =
          part.type === 'text' && part.prefixOf !== undefined
            ? await this.fileView(part.prefixOf, where, part.prefixOf.form)
            : undefined;
        const shown = withheld ? undefined : shownValue(part.text);
        return {
          type: part.type,
          size: utf8Size(part.text),
          ...(shown === undefined
            ? { withheld: true as const }
            : { text: shown.value as string, ...(shown.truncated ? { truncated: true as const } : {}) }),
          ...(prefixOf === undefined ? {} : { prefixOf }),
          at: part.at,
        };
      }
      case 'file':
        return { type: 'file', file: await this.fileView(part.file, where, part.file.form), at: part.at };
      case 'remote':
        this.remote(part.reference, part.at, where === 'log' ? 'log' : 'message');
        return { type: 'remote', reference: remoteView(part.reference, this.includeContent), at: part.at };
      case 'tool_call': {
        const shown = withheld ? undefined : shownValue(part.arguments);
        return {
          type: 'tool_call',
          ...(part.id === undefined ? {} : { id: part.id }),
          name: part.name,
          size: valueSize(part.arguments),
          ...(shown === undefined
            ? { withheld: true as const }
            : { arguments: shown.value, ...(shown.truncated ? { truncated: true as const } : {}) }),
          at: part.at,
        };
      }
      case 'tool_result':
        return {
          type: 'tool_result',
          ...(part.id === undefined ? {} : { id: part.id }),
          ...(part.name === undefined ? {} : { name: part.name }),
          ...(part.isError === undefined ? {} : { isError: part.isError }),
          parts: await this.parts(part.parts, where),
          at: part.at,
        };
      case 'other': {
        const shown = withheld ? undefined : shownValue(part.value);
        return {
          type: 'other',
          size: valueSize(part.value),
          ...(shown === undefined
            ? { withheld: true as const }
            : { value: shown.value, ...(shown.truncated ? { truncated: true as const } : {}) }),
          at: part.at,
        };
      }
    }
  }
}
