/** Below this frame width a mail is reflowed (most mail is laid out for 600-640 px). */
export const NARROW_FRAME_PX = 640
/** The side padding a mail keeps on a narrow frame. */
const NARROW_PADDING_PX = 8
/** A frame never shrinks below this, so a one-line mail still reads as a box. */
export const MIN_FRAME_HEIGHT_PX = 48
/** Boxes that a mail's fixed-width layout is made of, and that may give way on a narrow frame. */
const LAYOUT_BOXES = new Set(['TABLE', 'TBODY', 'TR', 'TD', 'TH', 'DIV', 'CENTER', 'P', 'H1', 'H2', 'H3', 'SECTION', 'ARTICLE', 'HEADER', 'FOOTER', 'MAIN'])

/**
 * Makes a mail fit its frame's width on a phone. Below 640 px side padding above 8 px is trimmed and boxes wider
 * than the frame (a 600-px table) give way to its width; what still cannot (a wide image map, a long unbroken word)
 * is zoomed out to fit. Returns the height the frame needs to show the whole mail without a scroll bar of its own.
 * All styles go through the CSSOM (which a CSP does not block); all reads come before all writes, so the work is two
 * passes over the mail's elements, whose number the server's HTML cap bounds.
 */
export function fitMailToFrame(doc: Document, frameWidth: number): number {
  const root = doc.documentElement
  const body = doc.body
  if (!body || frameWidth <= 0) return MIN_FRAME_HEIGHT_PX
  root.style.removeProperty('zoom')
  if (frameWidth < NARROW_FRAME_PX) reflow(body, frameWidth)
  const contentWidth = Math.max(root.scrollWidth, body.scrollWidth)
  if (contentWidth > frameWidth) root.style.setProperty('zoom', String(Math.floor((frameWidth / contentWidth) * 1000) / 1000))
  // The root's box, not the viewport's scrollHeight: that is never less than the frame's current height.
  return Math.max(MIN_FRAME_HEIGHT_PX, Math.ceil(root.getBoundingClientRect().height))
}

function reflow(body: HTMLElement, frameWidth: number): void {
  const view = body.ownerDocument.defaultView
  if (!view) return
  const elements = [body, ...Array.from(body.querySelectorAll<HTMLElement>('*'))]
  const changes = elements.map((el) => {
    const style = view.getComputedStyle(el)
    return {
      el,
      left: parseFloat(style.paddingLeft) > NARROW_PADDING_PX,
      right: parseFloat(style.paddingRight) > NARROW_PADDING_PX,
      wide: LAYOUT_BOXES.has(el.tagName) && el.getBoundingClientRect().width > frameWidth,
    }
  })
  for (const { el, left, right, wide } of changes) {
    if (left) el.style.setProperty('padding-left', `${NARROW_PADDING_PX}px`, 'important')
    if (right) el.style.setProperty('padding-right', `${NARROW_PADDING_PX}px`, 'important')
    if (wide) {
      el.style.setProperty('width', el.tagName === 'TABLE' ? '100%' : 'auto', 'important')
      el.style.setProperty('max-width', '100%', 'important')
      el.style.setProperty('min-width', '0', 'important')
      el.removeAttribute('width')
    }
  }
}
