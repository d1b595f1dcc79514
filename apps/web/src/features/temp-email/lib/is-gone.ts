import { ApiError } from '../../../lib/api-client'

/** The server no longer has the address (expired, released, burned): a 404 on any of its routes. */
export function isGone(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404
}
