/**
 * The viewer's script and stylesheet, at URLs carrying a digest of their text (cached for good).
 * No session needed: they hold nothing recorded.
 * @module
 */
import type { Hono } from 'hono';
import type { ViewerAssets } from '../viewer-assets.js';

/** Registers the asset routes. */
export function registerAssetRoutes(app: Hono, assets: ViewerAssets): void {
  for (const asset of [assets.script, assets.style]) {
    app.get(asset.path, () => {
      return new Response(asset.body, {
        headers: {
          'content-type': asset.contentType,
          'cache-control': 'public, max-age=31536000, immutable',
          'x-content-type-options': 'nosniff',
          'cross-origin-resource-policy': 'same-origin',
        },
      });
    });
  }
}
