/** argon2id's cost for new password hashes (PASSWORD_HASH_MEMORY_KIB, PASSWORD_HASH_PASSES); a hash keeps its own. */
export interface PasswordHashCost {
  memoryKib: number
  passes: number
}

/** OWASP Password Storage Cheat Sheet's argon2id profiles, each as strong as the others: [memory KiB, passes]. */
const OWASP_MINIMUMS = [[47_104, 1], [19_456, 2], [12_288, 3], [9_216, 4], [7_168, 5]] as const

/**
 * Production refuses a cost below every OWASP profile: a cheap hash there would make a leaked database quick to crack.
 * Elsewhere (tests, development) any cost from argon2's floor is allowed: the suites hash hundreds of times.
 */
export function checkPasswordHashCost(cost: PasswordHashCost, isProduction: boolean, problems: string[]): PasswordHashCost {
  if (isProduction && !OWASP_MINIMUMS.some(([memoryKib, passes]) => cost.memoryKib >= memoryKib && cost.passes >= passes)) {
    problems.push(
      `PASSWORD_HASH_MEMORY_KIB=${cost.memoryKib} with PASSWORD_HASH_PASSES=${cost.passes} is below OWASP's minimum for argon2id ` +
        `(${OWASP_MINIMUMS.map(([m, t]) => `${m} KiB × ${t}`).join(', ')}): refused with APP_ENV=production`,
    )
  }
  return cost
}
