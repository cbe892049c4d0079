/**
 * The selected span's detail: its facts, its messages as a conversation with every file in place,
 * the files below the messages, "Large values", the attributes, events, links and correlated
 * logs, then its resource and scope. Rendered into the trace page, and alone as the fragment the
 * page's script swaps in when another span is selected.
 * @module
 */
import type {
  AttributeView,
  MessagePartView,
  MessageView,
  SpanDetail,
  ValueLocation,
} from '../../read/read-model-types.js';
import { MAX_SHOWN_VALUE_BYTES } from '../../read/read-model-types.js';
import { MAX_SHOWN_LOGS } from '../../read/span-detail.js';
import { exactBytes, formatBytes, formatCount, formatDuration, formatTime } from '../format.js';
import { fileHref, spanLogsHref, tracePageHref, type ValueWhere, valueHref } from '../viewer-links.js';
import { Conversation, type ConversationPlace } from './conversation-view.js';
import { FileInPlace, Sha, StateLabel } from './file-view.js';
import { RemoteView } from './remote-view.js';
import { CutNote, valueText, Withheld } from './value-view.js';

const WHERE_LABELS = {
  message: 'in a message',
  event: 'recorded file (svc.file event)',
  attachment: 'attachment',
  metadata: 'in metadata',
  log: 'in a log record',
} as const;

function Attributes(props: {
  attributes: readonly AttributeView[];
  hrefOf: (key: string) => string | undefined;
}) {
  if (props.attributes.length === 0) return <p class="muted">None.</p>;
  return (
    <table class="kv">
      <tbody>
        {props.attributes.map((attribute) => (
          <tr>
            <th scope="row">
              {attribute.key}
              {attribute.type === 'string' ? null : <span class="muted"> ({attribute.type})</span>}
            </th>
            <td>
              {attribute.withheld ? (
                <Withheld size={attribute.size} />
              ) : (
                <pre>{valueText(attribute.value)}</pre>
              )}
              {attribute.truncated ? (
                <CutNote
                  shownBytes={MAX_SHOWN_VALUE_BYTES}
                  size={attribute.size}
                  href={props.hrefOf(attribute.key)}
                />
              ) : null}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The keys of the files in `messages` (shown in place there). */
function filesIn(messages: readonly MessageView[]): string[] {
  const keys: string[] = [];
  const visit = (parts: readonly MessagePartView[]) => {
    for (const part of parts) {
      if (part.type === 'file') keys.push(part.file.key);
      else if (part.type === 'tool_result') visit(part.parts);
    }
  };
  for (const message of messages) visit(message.parts);
  return keys;
}

function Fact(props: { label: string; children: unknown }) {
  return (
    <div>
      <dt>{props.label}</dt>
      <dd>{props.children}</dd>
    </div>
  );
}

/**
 * What the page of log records leaves out, and the links to the records before and after it: the
 * page holds at most `MAX_SHOWN_LOGS`; the rest are on the pages these links open.
 */
function LogsPageNote(props: { detail: SpanDetail }) {
  const { detail } = props;
  const { traceId, span, logsFrom, logs, omittedLogs } = detail;
  const total = span.logCount;
  const before = Math.min(logsFrom, total);
  if (before === 0 && omittedLogs === 0) return null;
  const previous = Math.max(0, before - MAX_SHOWN_LOGS);
  const next = logsFrom + logs.length;
  return (
    <p class="cut">
      {logs.length > 0
        ? `Showing log records ${formatCount(logsFrom + 1)}–${formatCount(next)} of ${formatCount(total)} (in time order, at most ${formatCount(MAX_SHOWN_LOGS)} a page): ${formatCount(before)} before, ${formatCount(omittedLogs)} after.`
        : `No log records from record ${formatCount(logsFrom + 1)} on: all ${formatCount(total)} come before.`}{' '}
      {before === 0 ? null : (
        <a href={spanLogsHref(traceId, span.spanId, previous)}>
          « Previous {formatCount(before - previous)} log records
        </a>
      )}{' '}
      {omittedLogs === 0 ? null : (
        <a href={spanLogsHref(traceId, span.spanId, next)}>
          Next {formatCount(Math.min(MAX_SHOWN_LOGS, omittedLogs))} log records »
        </a>
      )}
    </p>
  );
}

/** The detail of one span, for the trace page at `pageHref` (to link to the parent span). */
export function SpanDetailView(props: { detail: SpanDetail; parentHref?: string }) {
  const { detail } = props;
  const { span, traceId } = detail;
  const where = (w: ValueWhere) => valueHref(traceId, span.spanId, w);
  const spanPlace: ConversationPlace = {
    traceId,
    spanId: span.spanId,
    valueHref: (at: ValueLocation) => where({ attribute: at.attribute }),
  };
  // Log records by their index in the span's whole list (`recordedValue`'s), not on this page.
  const logIndex = (position: number) => detail.logsFrom + position;
  const logPlace = (index: number): ConversationPlace => ({
    traceId,
    spanId: span.spanId,
    valueHref: (at: ValueLocation) =>
      where(at.attribute === 'body' ? { log: index } : { log: index, attribute: at.attribute }),
  });
  const inLogMessages = new Set(detail.logs.flatMap((log) => filesIn(log.messages)));
  const logFiles = detail.files.filter((file) => file.where === 'log' && !inLogMessages.has(file.key));
  const below = detail.files.filter((file) => file.where !== 'message' && file.where !== 'log');
  const belowRemote = detail.remoteReferences.filter((reference) => reference.where === 'metadata');
  const dropped = [
    span.droppedAttributesCount > 0 ? `${formatCount(span.droppedAttributesCount)} attributes` : '',
    span.droppedEventsCount > 0 ? `${formatCount(span.droppedEventsCount)} events` : '',
    span.droppedLinksCount > 0 ? `${formatCount(span.droppedLinksCount)} links` : '',
  ].filter((text) => text !== '');
  return (
    <article class="span-detail" data-span-id={span.spanId}>
      <h2 data-title={`${span.name} · ${traceId}`}>{span.name}</h2>
      <div>
        <span class="badge">{span.kind}</span>
        <span class={span.error ? 'badge err' : 'badge'}>{span.status}</span>
        {span.model === undefined ? null : <span class="badge">{span.model}</span>}
        {span.errorType === undefined ? null : <span class="badge err">{span.errorType}</span>}
      </div>
      <dl class="facts">
        <Fact label="Duration">{formatDuration(span.durationMs)}</Fact>
        <Fact label="Start">{formatTime(span.startTime)}</Fact>
        <Fact label="Span ID">
          <code>{span.spanId}</code>
        </Fact>
        {span.parentSpanId === null ? (
          <Fact label="Parent">root</Fact>
        ) : (
          <Fact label="Parent">
            <a href={props.parentHref ?? tracePageHref(traceId, span.parentSpanId)}>
              <code>{span.parentSpanId}</code>
            </a>
          </Fact>
        )}
        {span.inputTokens === undefined && span.outputTokens === undefined ? null : (
          <Fact label="Tokens in / out">
            {formatCount(span.inputTokens ?? 0)} / {formatCount(span.outputTokens ?? 0)}
          </Fact>
        )}
        {span.statusMessage === undefined ? null : <Fact label="Status message">{span.statusMessage}</Fact>}
      </dl>
      {dropped.length > 0 ? (
        <p class="cut">The sender dropped {dropped.join(', ')} of this span before export (not received).</p>
      ) : null}

      {detail.messages.length > 0 ? (
        <section>
          <h3>Messages</h3>
          <Conversation messages={detail.messages} place={spanPlace} />
        </section>
      ) : null}

      {below.length > 0 || belowRemote.length > 0 ? (
        <section>
          <h3>Files</h3>
          <ul class="plain">
            {below.map((file) => (
              <li>
                <div class="muted">{WHERE_LABELS[file.where]}</div>
                <FileInPlace file={file} place={spanPlace} role />
              </li>
            ))}
            {belowRemote.map((reference) => (
              <li>
                <div class="muted">in metadata ({reference.at.attribute})</div>
                <RemoteView reference={reference} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {detail.largeValues.length > 0 ? (
        <section>
          <h3>Large values</h3>
          <ul class="plain">
            {detail.largeValues.map((value) => (
              <li class="file">
                <div class="fm">
                  <span class="name">{value.attribute}</span>
                  <span>{value.contentType}</span>
                  <span title={exactBytes(value.size)}>whole value {formatBytes(value.size)}</span>
                  <span>
                    SHA-256 <Sha sha256={value.sha256} />
                  </span>
                  <StateLabel state={value.state} />
                </div>
                {value.prefix === undefined ? null : <pre class="prefix">{value.prefix}</pre>}
                <div class="cut">
                  The record keeps the first {formatBytes(value.prefixSize)} of {formatBytes(value.size)} (
                  {exactBytes(value.size)}).{' '}
                  {value.state === 'stored' ? (
                    <a href={fileHref(traceId, value.sha256, span.spanId, { download: true })} download="">
                      Download the whole value
                    </a>
                  ) : (
                    'The whole value cannot be downloaded: its bytes are not stored.'
                  )}
                </div>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <section>
        <h3>Attributes</h3>
        <Attributes attributes={detail.attributes} hrefOf={(key) => where({ attribute: key })} />
      </section>

      {detail.events.length > 0 ? (
        <section>
          <h3>Events ({formatCount(detail.events.length)})</h3>
          <ul class="plain">
            {detail.events.map((event, index) => (
              <li class="event">
                <header>
                  <strong>{event.name}</strong> <span class="muted">{formatTime(event.time)}</span>
                </header>
                {event.attributes.length > 0 ? (
                  <Attributes
                    attributes={event.attributes}
                    hrefOf={(key) => where({ event: index, attribute: key })}
                  />
                ) : null}
                {event.droppedAttributesCount > 0 ? (
                  <p class="cut">
                    {formatCount(event.droppedAttributesCount)} attributes dropped by the sender.
                  </p>
                ) : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {detail.links.length > 0 ? (
        <section>
          <h3>Links ({formatCount(detail.links.length)})</h3>
          <ul class="plain">
            {detail.links.map((link) => (
              <li class="event">
                <a href={tracePageHref(link.traceId, link.spanId)}>
                  <code>
                    {link.traceId} / {link.spanId}
                  </code>
                </a>
                {link.attributes.length > 0 ? (
                  <Attributes attributes={link.attributes} hrefOf={() => undefined} />
                ) : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {detail.logs.length > 0 || span.logCount > 0 ? (
        <section>
          <h3>Logs ({formatCount(span.logCount)})</h3>
          <LogsPageNote detail={detail} />
          <ul class="plain">
            {detail.logs.map((log, position) => (
              <li class="log">
                <header>
                  <strong>{log.eventName === '' ? '(log record)' : log.eventName}</strong>{' '}
                  <span class="muted">
                    {formatTime(log.time)}
                    {log.severityText === '' ? null : ` · ${log.severityText}`}
                  </span>
                </header>
                {log.messages.length > 0 ? (
                  <Conversation messages={log.messages} place={logPlace(logIndex(position))} />
                ) : log.bodyWithheld ? (
                  <Withheld size={log.bodySize} />
                ) : log.body === undefined ? null : (
                  <pre>{valueText(log.body)}</pre>
                )}
                {log.bodyTruncated ? (
                  <CutNote
                    shownBytes={MAX_SHOWN_VALUE_BYTES}
                    size={log.bodySize}
                    href={where({ log: logIndex(position) })}
                  />
                ) : null}
                {log.attributes.length > 0 ? (
                  <Attributes
                    attributes={log.attributes}
                    hrefOf={(key) => where({ log: logIndex(position), attribute: key })}
                  />
                ) : null}
              </li>
            ))}
          </ul>
          {detail.logs.length > 0 ? <LogsPageNote detail={detail} /> : null}
          {logFiles.length > 0 ? (
            <>
              <h3>Other files of the log records</h3>
              <ul class="plain">
                {logFiles.map((file) => (
                  <li>
                    <FileInPlace file={file} place={spanPlace} />
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </section>
      ) : null}

      <details class="more-info">
        <summary>Resource and scope</summary>
        <h3>Resource</h3>
        <Attributes attributes={detail.resource} hrefOf={() => undefined} />
        <h3>Scope</h3>
        <p>
          <code>{detail.scope.name === '' ? '(unnamed)' : detail.scope.name}</code>{' '}
          {detail.scope.version === '' ? null : <span class="muted">{detail.scope.version}</span>}
        </p>
        {detail.scope.attributes.length > 0 ? (
          <Attributes attributes={detail.scope.attributes} hrefOf={() => undefined} />
        ) : null}
      </details>
    </article>
  );
}
