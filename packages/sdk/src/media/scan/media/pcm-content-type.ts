/**
 * Raw 16-bit PCM content types (spec "Automatic capture of files", "Limits": raw PCM playback).
 * `audio/pcm`, `audio/x-pcm` and `audio/L16` with a whole-number `rate` from 8000 to 192000 are
 * listed as `audio/pcm;rate=<rate>;channels=<n>` (channels 1 or 2, default 1); without a valid
 * rate they keep their recorded type and are download only. Provider `pcm16` audio (the OpenAI
 * audio format) is `audio/pcm;rate=24000;channels=1`.
 * @module
 */

import { mediaTypeEssence, mediaTypeParameters } from './media-type.js';

/** The content type of provider `pcm16` audio. */
export const PCM16_CONTENT_TYPE = 'audio/pcm;rate=24000;channels=1';

const PCM_ESSENCES = new Set(['audio/pcm', 'audio/x-pcm', 'audio/l16']);
const MIN_RATE = 8000;
const MAX_RATE = 192000;

function wholeNumber(value: string | undefined): number | undefined {
  if (value === undefined || !/^[0-9]{1,6}$/.test(value)) return undefined;
  return Number(value);
}

/** True when `essence` is one of the raw PCM media types. */
export function isRawPcm(essence: string): boolean {
  return PCM_ESSENCES.has(essence);
}

/**
 * The playable content type of a raw PCM media type (`audio/pcm;rate=<rate>;channels=<n>`), or
 * `undefined` when `mediaType` is not raw PCM with a valid rate and channel count.
 */
export function pcmContentType(mediaType: string): string | undefined {
  const essence = mediaTypeEssence(mediaType);
  if (essence === undefined || !isRawPcm(essence)) return undefined;
  const parameters = mediaTypeParameters(mediaType);
  const rate = wholeNumber(parameters.get('rate'));
  if (rate === undefined || rate < MIN_RATE || rate > MAX_RATE) return undefined;
  const channelsText = parameters.get('channels');
  const channels = channelsText === undefined ? 1 : wholeNumber(channelsText);
  if (channels !== 1 && channels !== 2) return undefined;
  return `audio/pcm;rate=${rate};channels=${channels}`;
}

/**
 * The content type the scanner lists for a recorded media type: raw PCM with a valid rate in its
 * playable form, anything else as its lowercase essence; `undefined` when it is not a media type.
 */
export function recordedContentType(mediaType: string): string | undefined {
  const essence = mediaTypeEssence(mediaType);
  if (essence === undefined) return undefined;
  if (isRawPcm(essence)) return pcmContentType(mediaType) ?? essence;
  return essence;
}
