/**
 * The list's one-line preview: the first `chars` characters (code points) of the content, runs of whitespace made one
 * space. Reads only a prefix a few times longer than the preview, whatever the content's length.
 */
export function previewOf(content: string, chars: number): string {
  const head = content.slice(0, chars * 8).replace(/\s+/g, ' ').trim()
  const points = Array.from(head)
  return points.length <= chars ? head : points.slice(0, chars).join('').trimEnd()
}
