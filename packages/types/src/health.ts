import { Type, type Static } from 'typebox'

export const HealthCheck = Type.Object({
  ok: Type.Boolean(),
  detail: Type.String({ description: 'What was seen, in a sentence an operator reads.' }),
})
export type HealthCheck = Static<typeof HealthCheck>

/** Ready only when every check is ok; answered with 503 otherwise, so a load balancer takes the process out. */
export const ReadinessResponse = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]),
  uptimeSeconds: Type.Number(),
  checks: Type.Object({
    database: HealthCheck,
    ingest: HealthCheck,
    changeFeed: HealthCheck,
  }),
})
export type ReadinessResponse = Static<typeof ReadinessResponse>

export const LivenessResponse = Type.Object({ status: Type.Literal('ok'), uptimeSeconds: Type.Number() })
export type LivenessResponse = Static<typeof LivenessResponse>
