import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { linkify } from '../lib/linkify'

/**
 * A text mail as written: its own direction (dir="auto": an Arabic mail reads right to left in the English UI and an
 * English one left to right in the Arabic UI), its http(s) URLs as links opening in a new tab without opener or referrer.
 */
export function PlainText({ text, empty }: { text: string; empty: string }) {
  const { t } = useTranslation('email')
  const pieces = useMemo(() => linkify(text), [text])
  return (
    <pre
      dir="auto"
      className="whitespace-pre-wrap break-words rounded-md bg-slate-50 p-3 text-start font-sans text-sm text-slate-800 [overflow-wrap:anywhere] dark:bg-slate-800 dark:text-slate-100"
    >
      {text
        ? pieces.map((piece, i) =>
            piece.kind === 'text' ? (
              piece.text
            ) : (
              <a
                key={i}
                href={piece.href}
                target="_blank"
                rel="noopener noreferrer"
                title={t('opensInNewTab')}
                className="text-blue-700 underline hover:no-underline dark:text-blue-300"
              >
                {piece.text}
              </a>
            ),
          )
        : empty}
    </pre>
  )
}
