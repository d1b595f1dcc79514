/// <reference lib="webworker" />
import { analyse } from './analyse'

/** Counts big texts off the main thread so typing never waits for the figures. */
self.onmessage = (event: MessageEvent<{ id: number; text: string }>) => {
  const { id, text } = event.data
  self.postMessage({ id, result: analyse(text) })
}
