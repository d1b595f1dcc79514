/**
 * SQL function lower-casing by JavaScript's Unicode rules (SQLite's own lower() and LIKE fold ASCII only). Queries
 * name it through this constant; every SQLite connection the storage opens has it. On PostgreSQL, lower() already
 * folds Unicode, so an engine there defines this name as lower().
 */
export const UNICODE_LOWER = 'tempbox_lower'

/** The part of a better-sqlite3 connection this needs (kept structural so callers need no driver types). */
interface FunctionHost {
  function(name: string, options: { deterministic: boolean }, fn: (value: unknown) => unknown): unknown
}

export function registerTextFunctions(sqlite: FunctionHost): void {
  sqlite.function(UNICODE_LOWER, { deterministic: true }, (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : value))
}
