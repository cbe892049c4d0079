import { z } from '@hono/zod-openapi';

/** OpenAPI schema of the JSON error body. */
export const ErrorBodySchema = z
  .object({
    error: z.object({
      code: z.string().describe('Machine-readable code, e.g. unauthorized, forbidden, invalid_request'),
      message: z.string().describe('What went wrong and how to fix it; never echoes keys or content'),
    }),
  })
  .openapi('Error');

const json = { 'application/json': { schema: ErrorBodySchema } };

/** Error responses shared by every authenticated route. */
export const AUTH_ERROR_RESPONSES = {
  401: { description: 'Missing or unknown key', content: json },
  403: { description: "The key's preset may not call this route", content: json },
  429: { description: 'Rate limited; honour Retry-After', content: json },
  503: { description: 'Unavailable; honour Retry-After', content: json },
} as const;

/** A JSON error response entry for the OpenAPI document. */
export function errorResponseDoc(description: string) {
  return { description, content: json };
}
