/** The process environment as a config reads it (tests hand in a plain object). */
export type Env = Record<string, string | undefined>

/** Reads an integer variable: unset or empty gives `fallback`; below `min` (default 0) is a problem. */
export type IntReader = (name: string, fallback: number, min?: number) => number

/**
 * `int(name, fallback, min)` over `env`. A bad value is noted in `problems` and the fallback used, so a config can
 * report every problem of the environment at once.
 */
export function intReader(env: Env, problems: string[]): IntReader {
  return (name, fallback, min = 0) => {
    const raw = env[name]
    if (raw === undefined || raw === '') return fallback
    const value = Number(raw)
    if (!Number.isInteger(value) || value < min) {
      problems.push(`${name} must be an integer ≥ ${min} (got "${raw}")`)
      return fallback
    }
    return value
  }
}

/** A switch written `on` or `off` (any case, spaces around allowed); unset or empty gives `fallback`. */
export function onOff(env: Env, name: string, fallback: boolean, problems: string[]): boolean {
  const raw = (env[name] ?? '').trim().toLowerCase()
  if (raw === '') return fallback
  if (raw !== 'on' && raw !== 'off') problems.push(`${name} must be "on" or "off" (got "${env[name]}")`)
  return raw === 'on' || (raw !== 'off' && fallback)
}

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }

/** `900`, `900s`, `15m`, `12h` or `7d` in ms (a bare number is seconds, as JWT_EXPIRES_IN read it). */
export function duration(name: string, raw: string | undefined, fallbackMs: number, problems: string[]): number {
  if (raw === undefined || raw.trim() === '') return fallbackMs
  const match = /^(\d+)\s*([smhd]?)$/.exec(raw.trim())
  const ms = match ? Number(match[1]) * UNIT_MS[match[2] || 's']! : 0
  if (!(ms >= 1000) || !Number.isSafeInteger(ms)) {
    problems.push(`${name} must be a duration of at least a second such as 900, 15m, 12h or 7d (got "${raw}")`)
    return fallbackMs
  }
  return ms
}
