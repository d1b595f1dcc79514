import type { ReactNode } from 'react'
import { cn } from './cn'

/**
 * An error shown under the field it is about. The field points at it with `aria-describedby={id}` (and
 * `aria-invalid`), so it is read with the field and stays until the field changes, unlike a toast that goes in 5 s.
 */
export function FieldError({ id, children, className }: { id: string; children: ReactNode; className?: string }) {
  return (
    <p id={id} role="alert" data-slot="field-error" className={cn('text-sm text-red-700 dark:text-red-400', className)}>
      {children}
    </p>
  )
}
