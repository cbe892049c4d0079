/**
 * The project connection returned by the connection check.
 * @module
 */

/** The project a key belongs to, as `GET /api/v1/projects/current` describes it. */
export interface ProjectConnection {
  /** The project ID. */
  id: string;
  /** The project's display name. */
  name: string;
  /** The ID of the organization owning the project. */
  organizationId: string;
  /** The project's URL-safe name. */
  slug: string;
}
