/**
 * `GET /api/v1/projects/current`: the project connection of the calling key.
 * @module
 */
import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { GuardedEnv } from '../auth/route-guard.js';
import { AUTH_ERROR_RESPONSES } from '../http/error-schema.js';
import type { Project } from '../project/project.js';

/** The project connection. */
export const ProjectSchema = z
  .object({ id: z.string(), name: z.string(), organizationId: z.string(), slug: z.string() })
  .openapi('ProjectConnection');

const route = createRoute({
  method: 'get',
  path: '/api/v1/projects/current',
  summary: 'The project connection of the calling key',
  security: [{ bearer: [] }],
  responses: {
    200: { description: 'The project', content: { 'application/json': { schema: ProjectSchema } } },
    ...AUTH_ERROR_RESPONSES,
  },
});

/** Registers the route on `app`. */
export function registerProjectsRoute(app: OpenAPIHono<GuardedEnv>, project: Project): void {
  const body = ProjectSchema.parse(project);
  app.openapi(route, (c) => c.json(body, 200));
}
