/**
 * Choosing, per direction, the one recorded source read as the messages (see
 * `NormalizedMessages`), and gathering the files of every other source and of metadata values
 * below the messages.
 * @module
 */

import { aiSdkPrompt, aiSdkPromptMessages, aiSdkResponse } from './conventions/ai-sdk.js';
import {
  langfuseObservationInput,
  langfuseObservationOutput,
  langfuseTraceInput,
  langfuseTraceOutput,
  traceloopEntityInput,
  traceloopEntityOutput,
} from './conventions/entity-values.js';
import { genAiInput, genAiLegacyCompletion, genAiLegacyPrompt, genAiOutput } from './conventions/genai.js';
import type { MessageSource, SourceRead } from './conventions/message-source.js';
import { metadataFiles } from './conventions/metadata-values.js';
import { openInferenceInput, openInferenceOutput } from './conventions/openinference.js';
import {
  openInferenceInputMessages,
  openInferenceOutputMessages,
} from './conventions/openinference-flattened.js';
import {
  openLlmetryCompletions,
  openLlmetryLegacyCompletions,
  openLlmetryLegacyPrompts,
  openLlmetryPrompts,
} from './conventions/openllmetry.js';
import { TOOL_ARGUMENT_SOURCES, TOOL_RESULT_SOURCES } from './conventions/tool-calls.js';
import type { NormalizedMessages, PlacedFile } from './message-types.js';
import { type PartsReader, placedFiles } from './parts/parts-reader.js';
import type { RecordValues } from './record-values.js';

/** Input sources, in rank order. */
const INPUT_SOURCES: readonly MessageSource[] = [
  genAiInput,
  aiSdkPromptMessages,
  aiSdkPrompt,
  openInferenceInput,
  openInferenceInputMessages,
  openLlmetryPrompts,
  openLlmetryLegacyPrompts,
  langfuseObservationInput,
  traceloopEntityInput,
  langfuseTraceInput,
  genAiLegacyPrompt,
  ...TOOL_ARGUMENT_SOURCES,
];

/** Output sources, in rank order. */
const OUTPUT_SOURCES: readonly MessageSource[] = [
  genAiOutput,
  aiSdkResponse,
  openInferenceOutput,
  openInferenceOutputMessages,
  openLlmetryCompletions,
  openLlmetryLegacyCompletions,
  langfuseObservationOutput,
  traceloopEntityOutput,
  langfuseTraceOutput,
  genAiLegacyCompletion,
  ...TOOL_RESULT_SOURCES,
];

/** What a record holds besides its attributes (a log record's body). */
export interface RecordExtras {
  /** Read first among the input (or output) sources. */
  input?: SourceRead | undefined;
  output?: SourceRead | undefined;
  /** Files of a value read for files only. */
  files?: readonly PlacedFile[];
}

function choose(reads: readonly SourceRead[]): SourceRead | undefined {
  return reads.find((read) => read.tier === 'messages') ?? reads.find((read) => read.tier === 'value');
}

/** The record's messages: one source per direction, the rest below (see `NormalizedMessages`). */
export function selectMessages(
  record: RecordValues,
  reader: PartsReader,
  extras: RecordExtras = {},
): NormalizedMessages {
  const result: NormalizedMessages = { messages: [], belowMessages: [], readAttributes: [] };
  const below: PlacedFile[] = [...(extras.files ?? [])];
  for (const [first, sources] of [
    [extras.input, INPUT_SOURCES],
    [extras.output, OUTPUT_SOURCES],
  ] as const) {
    const reads: SourceRead[] = [];
    if (first !== undefined) reads.push(first);
    for (const source of sources) {
      const read = source.read(record, reader);
      if (read !== undefined) reads.push(read);
    }
    const chosen = choose(reads);
    for (const read of reads) {
      if (read === chosen) {
        result.messages.push(...read.messages);
        result.readAttributes.push(...read.attributes);
      } else {
        below.push(...placedFiles(read.messages.flatMap((message) => message.parts)));
      }
    }
  }
  below.push(...metadataFiles(record, reader));
  const order = new Map(record.names.map((name, index) => [name, index]));
  result.belowMessages = below
    .map((file, index) => ({ file, index, rank: order.get(file.at.attribute) ?? -1 }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map(({ file }) => file);
  return result;
}
