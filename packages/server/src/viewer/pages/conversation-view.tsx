/**
 * Messages as a conversation: each message with its role, its parts in order — text, reasoning,
 * tool calls and results, files in place, remote references — and what was cut from any of them.
 * @module
 */
import type { MessagePartView, MessageView, ValueLocation } from '../../read/read-model-types.js';
import { MAX_SHOWN_VALUE_BYTES } from '../../read/read-model-types.js';
import { fileHref } from '../viewer-links.js';
import { canOpen, FileFacts, FileInPlace, type FilePlace } from './file-view.js';
import { RemoteView } from './remote-view.js';
import { CutNote, valueText, Withheld } from './value-view.js';

/** Where a message's values are, to link to their whole text. */
export interface ConversationPlace extends FilePlace {
  /** The URL of the whole value at `at`, when there is one. */
  valueHref(at: ValueLocation): string | undefined;
}

function Part(props: { part: MessagePartView; place: ConversationPlace }) {
  const { part, place } = props;
  switch (part.type) {
    case 'text':
    case 'reasoning': {
      const body = part.withheld === true ? <Withheld size={part.size} /> : <pre>{part.text}</pre>;
      const cut = part.truncated ? (
        <CutNote shownBytes={MAX_SHOWN_VALUE_BYTES} size={part.size} href={place.valueHref(part.at)} />
      ) : null;
      const prefix =
        part.prefixOf === undefined ? null : (
          <div class="cut">
            This is the start of a longer text ({part.prefixOf.size.toLocaleString('en-US')} bytes) kept as a
            file
            {canOpen(part.prefixOf) ? (
              <>
                :{' '}
                <a
                  href={fileHref(place.traceId, part.prefixOf.sha256, place.spanId, { download: true })}
                  download=""
                >
                  download the whole text
                </a>
              </>
            ) : (
              '.'
            )}
            <FileFacts file={part.prefixOf} />
          </div>
        );
      if (part.type === 'reasoning') {
        return (
          <details class="part reasoning">
            <summary>Reasoning ({part.size.toLocaleString('en-US')} bytes)</summary>
            {body}
            {cut}
          </details>
        );
      }
      return (
        <div class="part text">
          {body}
          {cut}
          {prefix}
        </div>
      );
    }
    case 'file':
      return (
        <div class="part file-part">
          <FileInPlace file={part.file} place={place} />
        </div>
      );
    case 'remote':
      return (
        <div class="part remote-part">
          <RemoteView reference={part.reference} />
        </div>
      );
    case 'tool_call':
      return (
        <div class="part tool">
          <div>
            Tool call <strong>{part.name}</strong>
            {part.id === undefined ? null : <span class="muted"> ({part.id})</span>}
          </div>
          {part.withheld === true ? <Withheld size={part.size} /> : <pre>{valueText(part.arguments)}</pre>}
          {part.truncated ? (
            <CutNote shownBytes={MAX_SHOWN_VALUE_BYTES} size={part.size} href={place.valueHref(part.at)} />
          ) : null}
        </div>
      );
    case 'tool_result':
      return (
        <div class="part tool">
          <div>
            Tool result{part.name === undefined ? null : <strong> {part.name}</strong>}
            {part.id === undefined ? null : <span class="muted"> ({part.id})</span>}
            {part.isError ? <span class="badge err">error</span> : null}
          </div>
          <div class="tool-result">
            {part.parts.map((inner) => (
              <Part part={inner} place={place} />
            ))}
          </div>
        </div>
      );
    case 'other':
      return (
        <div class="part other">
          {part.withheld === true ? <Withheld size={part.size} /> : <pre>{valueText(part.value)}</pre>}
          {part.truncated ? (
            <CutNote shownBytes={MAX_SHOWN_VALUE_BYTES} size={part.size} href={place.valueHref(part.at)} />
          ) : null}
        </div>
      );
  }
}

/** The messages, in order. */
export function Conversation(props: { messages: readonly MessageView[]; place: ConversationPlace }) {
  return (
    <div class="conversation">
      {props.messages.map((message) => (
        <article class={`msg role-${message.role.toLowerCase().replace(/[^a-z]/g, '')}`}>
          <header>
            <strong>{message.role}</strong>
            {message.name === undefined ? null : <> · {message.name}</>} · {message.direction}
            {message.finishReason === undefined ? null : <> · finish: {message.finishReason}</>}
            <span
              class="muted"
              title={`${message.at.attribute}${message.at.pointer === '' ? '' : `#${message.at.pointer}`}`}
            >
              {' '}
              · {message.convention}
            </span>
          </header>
          {message.parts.length === 0 ? <div class="muted">(no parts)</div> : null}
          {message.parts.map((part) => (
            <Part part={part} place={props.place} />
          ))}
        </article>
      ))}
    </div>
  );
}
