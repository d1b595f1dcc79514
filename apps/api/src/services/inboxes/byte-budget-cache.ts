/**
 * Values kept least recently read first out, within a budget of bytes. `sizeOf` is asked again on each read, so a value
 * that grows after it is stored (a listing gaining its compressed forms) is counted as it is now. A value larger than
 * the whole budget is not kept.
 */
export class ByteBudgetCache<K, V> {
  private readonly entries = new Map<K, { value: V; bytes: number }>()
  private total = 0

  constructor(
    private readonly maxBytes: number,
    private readonly sizeOf: (value: V) => number,
  ) {}

  get(key: K): V | undefined {
    const entry = this.entries.get(key)
    if (!entry) return undefined
    // Re-inserting moves it to the end: Map order is the recency order.
    this.entries.delete(key)
    const bytes = this.sizeOf(entry.value)
    this.total += bytes - entry.bytes
    entry.bytes = bytes
    this.entries.set(key, entry)
    this.evict()
    return entry.value
  }

  set(key: K, value: V): void {
    this.delete(key)
    const bytes = this.sizeOf(value)
    if (bytes > this.maxBytes) return
    this.entries.set(key, { value, bytes })
    this.total += bytes
    this.evict()
  }

  delete(key: K): void {
    const entry = this.entries.get(key)
    if (!entry) return
    this.entries.delete(key)
    this.total -= entry.bytes
  }

  clear(): void {
    this.entries.clear()
    this.total = 0
  }

  get size(): number {
    return this.entries.size
  }

  get heldBytes(): number {
    return this.total
  }

  private evict(): void {
    while (this.total > this.maxBytes) {
      const oldest = this.entries.keys().next()
      if (oldest.done) return
      this.delete(oldest.value)
    }
  }
}
