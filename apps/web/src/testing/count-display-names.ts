import { vi } from 'vitest'

/** Counts the Intl.DisplayNames made, which still work: a bare spy's instances have no `of`, so callers fall back. */
export function countDisplayNames() {
  const Real = Intl.DisplayNames
  return vi.spyOn(Intl, 'DisplayNames').mockImplementation(function (...args: ConstructorParameters<typeof Real>) {
    return new Real(...args)
  } as unknown as typeof Real)
}
