/**
 * OpenAI Chat Completions content parts (`openai` `ChatCompletionContentPart`): `text`,
 * `refusal`, `image_url` (a data: URL or a web URL; `image_url` as a plain string, as LangChain
 * records it), `input_audio` (`format` gives the media type, `pcm16` is raw PCM), `file`
 * (`file_data` with `filename`, or a `file_id` reference). The assistant message's `audio` is
 * read with the message.
 * @module
 */

import { readByteField } from '../files/byte-field.js';
import { PCM16_CONTENT_TYPE } from '../media/pcm-content-type.js';
import { fileIdReference } from '../media/remote-reference.js';
import { remotePart, textPart } from '../parts/make-part.js';
import type { PartFormat } from '../parts/part-reader.js';
import { objectMember, shortString, stringMember } from '../value/json-value.js';
import { childSite } from '../value/site.js';

/** Media types of OpenAI audio `format` values. */
const AUDIO_FORMATS: Readonly<Record<string, string>> = {
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  flac: 'audio/flac',
  opus: 'audio/ogg',
  aac: 'audio/aac',
  pcm16: PCM16_CONTENT_TYPE,
  pcm: PCM16_CONTENT_TYPE,
};

/** The media type of an OpenAI audio `format`. */
export function openAiAudioFormat(format: string | undefined): string | undefined {
  const key = format?.toLowerCase();
  return key !== undefined && Object.hasOwn(AUDIO_FORMATS, key) ? AUDIO_FORMATS[key] : undefined;
}

export const openAiChatParts: PartFormat = {
  name: 'OpenAI Chat Completions (openai ChatCompletionContentPart)',

  read(part, site, reader) {
    switch (shortString(part, 'type')) {
      case 'text': {
        const text = stringMember(part, 'text');
        return text === undefined ? undefined : reader.text(text, childSite(site, 'text'));
      }
      case 'refusal': {
        const refusal = stringMember(part, 'refusal');
        return refusal === undefined ? undefined : [textPart(refusal, childSite(site, 'refusal'))];
      }
      case 'image_url': {
        const nested = objectMember(part, 'image_url') !== undefined;
        const found = readByteField(
          part,
          site,
          nested
            ? { holderPath: ['image_url'], field: 'url', encoding: 'data-url' }
            : { holderPath: [], field: 'image_url', encoding: 'data-url' },
          reader.blobs,
        );
        return found === undefined ? undefined : [found];
      }
      case 'input_audio': {
        const audio = objectMember(part, 'input_audio');
        if (audio === undefined) return undefined;
        const found = readByteField(
          part,
          site,
          {
            holderPath: ['input_audio'],
            field: 'data',
            encoding: 'base64',
            mediaType: openAiAudioFormat(shortString(audio, 'format')),
          },
          reader.blobs,
        );
        return found === undefined ? undefined : [found];
      }
      case 'file': {
        const file = objectMember(part, 'file');
        if (file === undefined) return undefined;
        const name = shortString(file, 'filename');
        const found = readByteField(
          part,
          site,
          { holderPath: ['file'], field: 'file_data', encoding: 'base64', name },
          reader.blobs,
        );
        if (found !== undefined) return [found];
        const fileId = shortString(file, 'file_id');
        return fileId === undefined ? undefined : [remotePart(fileIdReference(fileId, { name }), site)];
      }
      default:
        return undefined;
    }
  },
};
