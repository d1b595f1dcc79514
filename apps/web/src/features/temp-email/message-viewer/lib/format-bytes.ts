/** Size in B, KB or MB (1024-based), as people read it: "13 KB", "1.4 MB", one decimal only below 10. */
export function formatBytes(bytes: number, locale?: string): { value: string; unit: 'b' | 'kb' | 'mb' } {
  const [amount, unit] = bytes < 1024 ? [bytes, 'b' as const] : bytes < 1024 * 1024 ? [bytes / 1024, 'kb' as const] : [bytes / (1024 * 1024), 'mb' as const]
  const digits = unit === 'b' || amount >= 10 ? 0 : 1
  return { value: new Intl.NumberFormat(locale, { maximumFractionDigits: digits }).format(amount), unit }
}
