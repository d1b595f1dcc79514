import { clsx, type ClassValue } from 'clsx'
import { extendTailwindMerge } from 'tailwind-merge'

// Spec §9: the style-merge cache holds 500 entries.
const twMerge = extendTailwindMerge({ cacheSize: 500 })

/** Joins class names and lets later Tailwind classes override earlier conflicting ones. */
export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs))
}
