import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'
import { postBatches } from '../src/post-batches.js'

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

describe('postBatches', () => {
  it('posts what one turn queued as one message, in order, and the next turn on its own', async () => {
    const posts: number[][] = []
    const batches = postBatches<number>((items) => posts.push(items))
    batches.push(1)
    batches.push(2)
    batches.push(3)
    expect(posts).toEqual([])
    await nextTurn()
    batches.push(4)
    await nextTurn()
    expect(posts).toEqual([[1, 2, 3], [4]])
  })

  it('moves each buffer of a batch once, to a port on another side', async () => {
    const { port1, port2 } = new MessageChannel()
    const batches = postBatches<Uint8Array>((items, transfer) => port1.postMessage(items, transfer))
    const a = Buffer.allocUnsafeSlow(4096).fill(0x61)
    const b = Buffer.allocUnsafeSlow(4096).fill(0x62)
    batches.push(a, [a.buffer as ArrayBuffer])
    batches.push(b, [b.buffer as ArrayBuffer])
    batches.push(a.subarray(0, 1), [a.buffer as ArrayBuffer])
    await nextTurn()
    const arrived = receiveMessageOnPort(port2)!.message as Uint8Array[]
    port1.close()
    expect(arrived.map((bytes) => Buffer.from(bytes).toString())).toEqual(['a'.repeat(4096), 'b'.repeat(4096), 'a'])
    expect(a.buffer.byteLength).toBe(0)
  })

  it('with a delay, gathers what came within it; flush posts at once', async () => {
    const posts: string[][] = []
    const batches = postBatches<string>((items) => posts.push(items), 30)
    batches.push('a')
    await nextTurn()
    batches.push('b')
    expect(posts).toEqual([])
    await new Promise((resolve) => setTimeout(resolve, 60))
    expect(posts).toEqual([['a', 'b']])
    batches.push('c')
    batches.flush()
    expect(posts).toEqual([['a', 'b'], ['c']])
    batches.flush()
    expect(posts).toHaveLength(2)
  })
})
