/** Size in B, KB or MB (1024-based) with one decimal above bytes. */
export function formatBytes(bytes: number): { value: string; unit: 'b' | 'kb' | 'mb' } {
  if (bytes < 1024) return { value: String(bytes), unit: 'b' }
  if (bytes < 1024 * 1024) return { value: (bytes / 1024).toFixed(1), unit: 'kb' }
  return { value: (bytes / (1024 * 1024)).toFixed(1), unit: 'mb' }
}
