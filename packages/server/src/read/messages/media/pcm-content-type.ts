/**
 * Raw 16-bit PCM content types (spec "Automatic capture of files", "Limits": raw PCM playback):
 * `audio/pcm`, `audio/x-pcm` and `audio/L16` with a whole-number `rate` from 8000 to 192000 are
 * listed as `audio/pcm;rate=<rate>;channels=<n>` (channels 1 or 2, default 1); without a valid
 * rate they keep their type and are download only. Provider `pcm16` audio is
 * `audio/pcm;rate=24000;channels=1`. The same rules as the SDK's `pcm-content-type.ts`.
 * @module
 */

import { mediaTypeEssence, mediaTypeParameters } from './media-type.js';

/** The content type of provider `pcm16` audio (OpenAI). */
export const PCM16_CONTENT_TYPE = 'audio/pcm;rate=24000;channels=1';

const PCM_ESSENCES = new Set(['audio/pcm', 'audio/x-pcm', 'audio/l16']);

function wholeNumber(value: string | undefined): number | undefined {
  return value !== undefined && /^[0-9]{1,6}$/.test(value) ? Number(value) : undefined;
}

/** The playable form of a raw PCM media type, or `undefined` when it is not one with a valid rate. */
export function pcmContentType(mediaType: string): string | undefined {
  const essence = mediaTypeEssence(mediaType);
  if (essence === undefined || !PCM_ESSENCES.has(essence)) return undefined;
  const parameters = mediaTypeParameters(mediaType);
  const rate = wholeNumber(parameters.get('rate'));
  if (rate === undefined || rate < 8000 || rate > 192000) return undefined;
  const channelsText = parameters.get('channels');
  const channels = channelsText === undefined ? 1 : wholeNumber(channelsText);
  if (channels !== 1 && channels !== 2) return undefined;
  return `audio/pcm;rate=${rate};channels=${channels}`;
}

/**
 * The content type a file is listed with for a recorded media type: raw PCM with a valid rate in
 * its playable form, anything else as its lowercase essence; `undefined` when it is not a media
 * type.
 */
export function recordedContentType(mediaType: unknown): string | undefined {
  const essence = mediaTypeEssence(mediaType);
  if (essence === undefined) return undefined;
  if (PCM_ESSENCES.has(essence)) return pcmContentType(mediaType as string) ?? essence;
  return essence;
}
