/**
 * `scanAttribute`: finds the inline files of one scanned span or log attribute value and puts
 * them in digest form, editing the value's text at positions (spec "Automatic capture of files").
 * @module
 */

import type { DecideFile } from '../media-types.js';
import { type AskFile, askFile } from './engine/ask-decide.js';
import { blobPartText, textFilePrefix } from './engine/digest-form.js';
import { fileFacts } from './engine/file-facts.js';
import { readStringPayload } from './engine/found-payload.js';
import { applyInlineValueLimit, mayExceedInlineLimit } from './engine/inline-value-limit.js';
import { JsonTextScan } from './engine/json-text-scan.js';
import { textMayHoldFiles } from './engine/may-hold-files.js';
import { applyEdits } from './engine/text-edits.js';
import { ARRAY, ROOT } from './json/json-tape.js';
import { PARSE_LIMIT_UNITS, releaseTape, tokenizeJson } from './json/tokenize-json.js';
import { startsWithDataScheme } from './media/data-url.js';
import { isDeclaredPlainText, readsOnlyPartsLists } from './recognizers/attribute-conventions.js';

/**
 * The attributes of the record an attribute belongs to (OpenInference `input.mime_type` and
 * `output.mime_type` declare `input.value` / `output.value` as `text/plain`).
 */
export type ScanContext = Readonly<Record<string, unknown>>;

/** The outcome of {@link scanAttribute}. */
export interface ScanResult {
  /** The value to record: the input with replaced ranges swapped, or the input itself. */
  value: string;
  changed: boolean;
}

function scanWholeDataUrl(name: string, value: string, ask: AskFile): string | undefined {
  const payload = readStringPayload(value, 0, value.length, 'data-url');
  if (payload === undefined) return undefined;
  const facts = fileFacts({}, payload);
  if (facts === undefined) return undefined;
  const prefix = facts.textual ? textFilePrefix(payload.source) : undefined;
  const decision = ask({
    key: prefix === undefined ? `${name}#` : `${name}#/content`,
    sha256: payload.sha256,
    size: payload.size,
    contentType: facts.contentType,
    modality: facts.modality,
    ...(facts.name === undefined ? {} : { name: facts.name }),
    source: payload.source,
  });
  return decision === 'keep' ? undefined : blobPartText(facts, payload.sha256, payload.size, prefix);
}

function scanMedia(name: string, value: string, ask: AskFile): { value: string; json: boolean } {
  if (startsWithDataScheme(value, 0)) {
    return { value: scanWholeDataUrl(name, value, ask) ?? value, json: false };
  }
  const tokens = tokenizeJson(value);
  if (!tokens.ok) return { value, json: tokens.reason !== 'malformed' };
  try {
    if (tokens.bigInteger) return { value, json: true };
    if (readsOnlyPartsLists(name) && tokens.tape.kind(ROOT) !== ARRAY) return { value, json: true };
    const scan = new JsonTextScan(tokens.tape, {
      keyBase: `${name}#`,
      ask,
      largeMode: value.length > PARSE_LIMIT_UNITS,
      depthBase: 0,
    });
    scan.walk();
    return { value: applyEdits(value, scan.edits), json: true };
  } finally {
    releaseTape(tokens.tape);
  }
}

/**
 * False when {@link scanAttribute} surely gives `value` back unchanged without calling `decide`:
 * it is within 1 MiB and either declared `text/plain` or, without tokenizing, provably free of
 * files (see `engine/may-hold-files.ts`). Allocates nothing; callers use it to skip the set-up
 * of a scan for the many values that hold no file.
 */
export function attributeMayHoldFiles(name: string, value: string, context?: ScanContext): boolean {
  if (value.length === 0) return false;
  if (mayExceedInlineLimit(value)) return true;
  return (startsWithDataScheme(value, 0) || textMayHoldFiles(value)) && !isDeclaredPlainText(name, context);
}

/**
 * Scans the value of a span or log attribute that the content table marks as scanned.
 *
 * `decide` is called for each file found, in reading order; files it answers `upload` or
 * `digest` are put in digest form, the rest of the text kept byte for byte. A value still longer
 * than 1 MiB afterwards is offered last, as one file keyed `<attribute>#`. A value it cannot read
 * (malformed, too deep, too large) is left as it was. It throws only on a defect — of the scanner
 * or of `decide` — so that the caller's guard reports it instead of losing the record's files
 * without a word.
 *
 * @param name the attribute name (the `svc.blobs` keys start with `<name>#`)
 * @param value the attribute value: JSON text, a whole data: URL, or plain text
 * @param context the record's attributes, for values declared `text/plain`
 */
export function scanAttribute(
  name: string,
  value: string,
  decide: DecideFile,
  context?: ScanContext,
): ScanResult {
  // Most values hold no file: proven so without tokenizing (values that may pass 1 MiB are
  // tokenized anyway, to know whether they are JSON).
  if (typeof value !== 'string' || !attributeMayHoldFiles(name, value, context)) {
    return { value, changed: false };
  }
  const ask = askFile(decide);
  let scanned = value;
  let json = false;
  if (!isDeclaredPlainText(name, context)) {
    const media = scanMedia(name, value, ask);
    scanned = media.value;
    json = media.json;
  }
  const recorded = applyInlineValueLimit(name, scanned, json, ask);
  return { value: recorded, changed: recorded !== value };
}
