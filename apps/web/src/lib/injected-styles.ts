/**
 * Radix's dialogs and menus lock page scroll through react-remove-scroll(-bar), which injects `<style>` elements into
 * the head (react-style-singleton). The policy's `style-src 'self'` refuses them: the lock failed and Chromium logged
 * a violation at every menu and dialog. That library writes through the legacy `element.styleSheet.cssText` when an
 * element has one: given one here, the rules go into a constructable stylesheet (CSSOM, which CSP does not govern)
 * adopted by the document, and the element is kept in a detached holder instead of the head, where even empty it would
 * be checked. When the library takes it out again, its rules go.
 */
export function routeInjectedStylesThroughCssom(doc: Document = document): void {
  if (typeof CSSStyleSheet === 'undefined' || !('replaceSync' in CSSStyleSheet.prototype) || !('adoptedStyleSheets' in doc)) return
  if (Object.getOwnPropertyDescriptor(HTMLStyleElement.prototype, 'styleSheet')) return
  const sheets = new Map<Node, CSSStyleSheet>()
  const holder = doc.createElement('div')
  const adopt = (sheet: CSSStyleSheet) => {
    doc.adoptedStyleSheets = [...doc.adoptedStyleSheets, sheet]
  }
  const drop = (sheet: CSSStyleSheet) => {
    doc.adoptedStyleSheets = doc.adoptedStyleSheets.filter((s) => s !== sheet)
  }

  const writerFor = (element: HTMLStyleElement) => ({
    set cssText(css: string) {
      const sheet = sheets.get(element) ?? new CSSStyleSheet()
      sheet.replaceSync(css)
      sheets.set(element, sheet)
    },
  })
  Object.defineProperty(HTMLStyleElement.prototype, 'styleSheet', {
    configurable: true,
    get(this: HTMLStyleElement) {
      return writerFor(this)
    },
  })

  const head = doc.head
  const append = head.appendChild.bind(head)
  head.appendChild = <T extends Node>(node: T): T => {
    const sheet = sheets.get(node)
    if (!sheet) return append(node)
    adopt(sheet)
    return holder.appendChild(node)
  }
  new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.removedNodes) {
        const sheet = sheets.get(node)
        if (sheet) {
          drop(sheet)
          sheets.delete(node)
        }
      }
    }
  }).observe(holder, { childList: true })
}
