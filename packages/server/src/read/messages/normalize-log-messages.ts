/**
 * `normalizeLogMessages`: a log record's messages in the normalized form: a GenAI event's body
 * (keyed `body#<pointer>`), and message attributes as on a span (the inference-details record
 * `recordMessages()` writes holds `gen_ai.input.messages` / `gen_ai.output.messages`).
 * @module
 */

import type { ListedFile } from '../../media/listed-files.js';
import type { AnyValue, KeyValue } from '../../otlp/model.js';
import { BODY, isInputEvent, readEventBody } from './conventions/genai-events.js';
import { BlobIndex } from './files/blob-index.js';
import type { NormalizedMessages } from './message-types.js';
import { PartsReader } from './parts/parts-reader.js';
import { RecordValues } from './record-values.js';
import { selectMessages } from './select-sources.js';
import { anyValueToJson } from './value/any-value-json.js';
import { isObject } from './value/json-value.js';
import { looksLikeJsonContainer, parseJsonText } from './value/parse-json-text.js';
import { rootSite } from './value/site.js';

/** The body as JSON; a string holding a JSON object or array is that value. */
function bodyJson(body: AnyValue | undefined | null): unknown {
  const json = anyValueToJson(body);
  if (typeof json !== 'string' || !looksLikeJsonContainer(json)) return json;
  const parsed = parseJsonText(json);
  return parsed.ok ? parsed.value : json;
}

/**
 * The messages a log record holds, normalized like a span's (see `normalizeSpanMessages`). The
 * body of a `gen_ai.*` message event is read as its message; the body of another `gen_ai.*` event
 * only for files (below the messages). Never throws.
 *
 * @param eventName the record's event name (`gen_ai.user.message`, `gen_ai.choice`, …)
 * @param listed the record's own `svc.blobs` entries
 */
export function normalizeLogMessages(
  eventName: string,
  body: AnyValue | undefined,
  attributes: readonly KeyValue[],
  listed: readonly ListedFile[],
): NormalizedMessages {
  const reader = new PartsReader(new BlobIndex(listed));
  const json = bodyJson(body);
  const read = json === undefined ? undefined : readEventBody(eventName, json, reader);
  const files =
    read === undefined && eventName.startsWith('gen_ai.') && (isObject(json) || Array.isArray(json))
      ? reader.files(json, rootSite(BODY))
      : [];
  return selectMessages(new RecordValues(attributes), reader, {
    input: isInputEvent(eventName) ? read : undefined,
    output: isInputEvent(eventName) ? undefined : read,
    files,
  });
}
