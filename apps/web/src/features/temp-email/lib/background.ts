/** The reader is not looking at this tab: it is hidden (another tab, minimised) or another window has the focus. */
export function inBackground(): boolean {
  return document.visibilityState === 'hidden' || !document.hasFocus()
}

/** Calls `handler` whenever the tab may have gone to or come back from the background. Returns the unsubscribe. */
export function onBackgroundChange(handler: () => void): () => void {
  document.addEventListener('visibilitychange', handler)
  window.addEventListener('focus', handler)
  window.addEventListener('blur', handler)
  return () => {
    document.removeEventListener('visibilitychange', handler)
    window.removeEventListener('focus', handler)
    window.removeEventListener('blur', handler)
  }
}
