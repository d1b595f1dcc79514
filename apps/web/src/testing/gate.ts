/**
 * A response held back until the test opens it: the test sees the pending state for as long as it needs, on any
 * machine, instead of racing a fixed delay.
 */
export function gate(): { wait: Promise<void>; open: () => void } {
  let open!: () => void
  const wait = new Promise<void>((resolve) => {
    open = resolve
  })
  return { wait, open }
}
