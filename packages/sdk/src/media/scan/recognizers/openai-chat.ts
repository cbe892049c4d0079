/**
 * OpenAI Chat Completions message parts (`openai` package: `ChatCompletionContentPartImage`,
 * `ChatCompletionContentPartInputAudio`, `ChatCompletionContentPart.File`,
 * `ChatCompletionAssistantMessageParam.audio` / `ChatCompletionAudio`).
 *
 * - `{ type: "image_url", image_url: { url: "data:…" } }` (also `image_url` as a plain string,
 *   as LangChain records it): `url` removed, `sha256`/`size` added in `image_url`.
 * - `{ type: "input_audio", input_audio: { data, format } }`: `format` gives the media type
 *   (`pcm16` → `audio/pcm;rate=24000;channels=1`).
 * - `{ type: "file", file: { file_data, filename } }`: `file_data` is a data: URL (or bare
 *   base64); the name is `filename`.
 * - An assistant message with `audio: { data }` (a response's `choices[].message`): `audio.data`
 *   removed, the message carries the digest and is the key. The format was chosen in the request,
 *   so the media type comes from the bytes (WAV, MP3, FLAC, Ogg, AAC), else raw `pcm16`.
 * @module
 */

import { PCM16_CONTENT_TYPE } from '../media/pcm-content-type.js';
import type { DigestMatch, NodeReader, PartMatch, Recognizer } from './recognizer.js';
import { hasString, isDigestAt, memberObject, memberString } from './recognizer.js';

/** Media types of OpenAI audio `format` values. */
export const OPENAI_AUDIO_FORMATS: Readonly<Record<string, string>> = {
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  flac: 'audio/flac',
  opus: 'audio/ogg',
  aac: 'audio/aac',
  pcm16: PCM16_CONTENT_TYPE,
  pcm: PCM16_CONTENT_TYPE,
};

function audioFormat(format: string | undefined): string | undefined {
  if (format === undefined) return undefined;
  const key = format.toLowerCase();
  return Object.hasOwn(OPENAI_AUDIO_FORMATS, key) ? OPENAI_AUDIO_FORMATS[key] : undefined;
}

export const openAiChat: Recognizer = {
  convention:
    'OpenAI Chat Completions (openai ChatCompletionContentPart, ChatCompletionAssistantMessageParam.audio)',
  types: ['image_url', 'input_audio', 'file'],
  untypedKeys: ['audio'],

  match<N>(part: N, reader: NodeReader<N>, type: string | undefined): PartMatch | undefined {
    if (type === 'image_url') {
      const image = memberObject(reader, part, 'image_url');
      if (image !== undefined && hasString(reader, image, 'url')) {
        return { form: 'openai.image_url', holderPath: ['image_url'], field: 'url', encoding: 'data-url' };
      }
      if (hasString(reader, part, 'image_url')) {
        return { form: 'openai.image_url', holderPath: [], field: 'image_url', encoding: 'data-url' };
      }
      return undefined;
    }
    if (type === 'input_audio') {
      const audio = memberObject(reader, part, 'input_audio');
      if (audio === undefined || !hasString(reader, audio, 'data')) return undefined;
      return {
        form: 'openai.input_audio',
        holderPath: ['input_audio'],
        field: 'data',
        encoding: 'base64',
        mediaType: audioFormat(memberString(reader, audio, 'format')),
        modality: 'audio',
      };
    }
    if (type === 'file') {
      const file = memberObject(reader, part, 'file');
      if (file === undefined || !hasString(reader, file, 'file_data')) return undefined;
      return {
        form: 'openai.file',
        holderPath: ['file'],
        field: 'file_data',
        encoding: 'base64',
        name: memberString(reader, file, 'filename'),
      };
    }
    if (type === undefined && memberString(reader, part, 'role') === 'assistant') {
      const audio = memberObject(reader, part, 'audio');
      if (audio === undefined || !hasString(reader, audio, 'data')) return undefined;
      return {
        form: 'openai.assistant_audio',
        holderPath: ['audio'],
        field: 'data',
        encoding: 'base64',
        modality: 'audio',
        fallbackMediaType: PCM16_CONTENT_TYPE,
      };
    }
    return undefined;
  },

  matchDigest<N>(part: N, reader: NodeReader<N>, type: string | undefined): DigestMatch | undefined {
    if (type === 'image_url') {
      if (isDigestAt(reader, part, ['image_url'], 'url')) {
        return { form: 'openai.image_url', holderPath: ['image_url'], field: 'url', restoreAs: 'data-url' };
      }
      if (isDigestAt(reader, part, [], 'image_url')) {
        return { form: 'openai.image_url', holderPath: [], field: 'image_url', restoreAs: 'data-url' };
      }
      return undefined;
    }
    if (type === 'input_audio' && isDigestAt(reader, part, ['input_audio'], 'data')) {
      const audio = memberObject(reader, part, 'input_audio')!;
      return {
        form: 'openai.input_audio',
        holderPath: ['input_audio'],
        field: 'data',
        restoreAs: 'base64',
        mediaType: audioFormat(memberString(reader, audio, 'format')),
      };
    }
    if (type === 'file' && isDigestAt(reader, part, ['file'], 'file_data')) {
      return { form: 'openai.file', holderPath: ['file'], field: 'file_data', restoreAs: 'data-url' };
    }
    if (
      type === undefined &&
      memberString(reader, part, 'role') === 'assistant' &&
      isDigestAt(reader, part, ['audio'], 'data')
    ) {
      return { form: 'openai.assistant_audio', holderPath: ['audio'], field: 'data', restoreAs: 'base64' };
    }
    return undefined;
  },
};
