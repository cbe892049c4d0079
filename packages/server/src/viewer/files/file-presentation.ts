/**
 * How the viewer presents a file of a given media type: shown in place (images, audio, video,
 * playable raw PCM) or as a link (documents and everything else); and how its bytes are served:
 * inline only for types that cannot run script (raster images, audio, video, plain text), as an
 * attachment for the rest (HTML, SVG, XML, JavaScript and any type not known to be inert).
 * @module
 */
import { pcmFormat } from './raw-pcm.js';

/** How a file is shown on the page. */
export type FilePresentation = 'image' | 'audio' | 'video' | 'pcm' | 'link';

/** Raster image types browsers show in `<img>` (SVG is not among them: it is a document). */
const IMAGES = new Set([
  'image/png',
  'image/jpeg',
  'image/jpg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/bmp',
  'image/x-icon',
  'image/vnd.microsoft.icon',
]);

/** The media type without parameters, lowercase. */
export function essenceOf(contentType: string): string {
  return contentType.split(';')[0]!.trim().toLowerCase();
}

/** How a file of `contentType` is shown. */
export function presentationOf(contentType: string): FilePresentation {
  const essence = essenceOf(contentType);
  if (IMAGES.has(essence)) return 'image';
  if (pcmFormat(contentType) !== undefined) return 'pcm';
  if (['audio/pcm', 'audio/x-pcm', 'audio/l16'].includes(essence)) return 'link';
  if (essence.startsWith('audio/')) return 'audio';
  if (essence.startsWith('video/')) return 'video';
  return 'link';
}

/** Whether bytes of `contentType` may be served inline: nothing in them can run as script. */
export function servedInline(contentType: string): boolean {
  const essence = essenceOf(contentType);
  const presentation = presentationOf(contentType);
  return (
    presentation === 'image' ||
    presentation === 'video' ||
    (presentation === 'audio' && essence !== 'audio/pcm') ||
    essence === 'text/plain'
  );
}
