import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Card, CardContent, CardDescription, CardHeader, CardTitle, Label, Textarea } from '@tempbox/ui'
import { FileText } from 'lucide-react'
import { useTextAnalysis } from '../hooks/use-text-analysis'
import { MIN_WORDS_TO_SCORE } from '../lib/readability'
import { READING_WORDS_PER_MINUTE, SPEAKING_WORDS_PER_MINUTE, type TextStats } from '../lib/text-stats'

const STAT_KEYS: (keyof TextStats)[] = ['words', 'characters', 'charactersNoSpaces', 'paragraphs', 'sentences', 'readingTime', 'speakingTime']

/** Word and text counter card (spec §2, §5): everything is counted in the browser; nothing is sent anywhere. */
export function WordCounterTool() {
  const { t, i18n } = useTranslation('tools')
  const [text, setText] = useState('')
  const { analysis, pending } = useTextAnalysis(text)
  const textId = useId()
  const number = new Intl.NumberFormat(i18n.language)
  const decimal = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 })
  const { stats, readability } = analysis

  // Spec §5 rounds the times up to whole minutes; a few words read in seconds, so under a minute says so.
  const perMinute: Partial<Record<keyof TextStats, number>> = { readingTime: READING_WORDS_PER_MINUTE, speakingTime: SPEAKING_WORDS_PER_MINUTE }
  const statValue = (key: keyof TextStats) => {
    const rate = perMinute[key]
    if (rate === undefined) return number.format(stats[key])
    if (stats.words > 0 && stats.words < rate) return t('wordCounter.underMinute')
    return t('wordCounter.minutes', { value: number.format(stats[key]) })
  }

  return (
    <Card className="w-full" data-testid="word-counter">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <FileText aria-hidden className="size-5 text-blue-700 dark:text-blue-400" />
          {t('wordCounter.title')}
        </CardTitle>
        <CardDescription>{t('wordCounter.description')}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <Label htmlFor={textId}>{t('wordCounter.textLabel')}</Label>
        <Textarea
          id={textId}
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder={t('wordCounter.placeholder')}
          rows={8}
          className="min-h-40 resize-y"
          spellCheck={false}
        />
        <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4" aria-live="polite" aria-busy={pending}>
          {STAT_KEYS.map((key) => (
            <div key={key} className="rounded-lg bg-slate-100 p-3 dark:bg-slate-800" data-stat={key}>
              <dt className="text-xs text-slate-600 dark:text-slate-300">{t(`wordCounter.stats.${key}`)}</dt>
              <dd className="text-xl font-semibold tabular-nums">{statValue(key)}</dd>
            </div>
          ))}
        </dl>
        {pending && <p className="text-xs text-slate-600 dark:text-slate-300">{t('wordCounter.counting')}</p>}

        <section aria-labelledby={`${textId}-readability`} className="flex flex-col gap-2">
          <h4 id={`${textId}-readability`} className="font-semibold">
            {t('wordCounter.readability.title')}
          </h4>
          {readability.unscored === 'empty' ? (
            <p className="text-sm text-slate-600 dark:text-slate-300">{t('wordCounter.readability.empty')}</p>
          ) : (
            <>
              {readability.unscored && (
                <p className="text-sm text-slate-600 dark:text-slate-300" data-testid="readability-unscored">
                  {readability.unscored === 'tooShort'
                    ? t('wordCounter.readability.tooShort', { min: number.format(MIN_WORDS_TO_SCORE) })
                    : t('wordCounter.readability.otherScript')}
                </p>
              )}
              <dl className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-4">
                {readability.fleschReadingEase !== null && (
                  <>
                    <Figure label={t('wordCounter.readability.ease')} value={decimal.format(readability.fleschReadingEase)} hint={t(`wordCounter.readability.level.${easeLevel(readability.fleschReadingEase)}`)} stat="ease" />
                    <Figure label={t('wordCounter.readability.grade')} value={decimal.format(readability.fleschKincaidGrade ?? 0)} stat="grade" />
                  </>
                )}
                <Figure label={t('wordCounter.readability.sentenceLength')} value={decimal.format(readability.averageSentenceLength)} hint={t('wordCounter.readability.wordsPerSentence')} stat="sentenceLength" />
                <Figure label={t('wordCounter.readability.wordLength')} value={decimal.format(readability.averageWordLength)} hint={t('wordCounter.readability.lettersPerWord')} stat="wordLength" />
              </dl>
              {readability.topWords.length > 0 && (
                <div>
                  <h5 className="mb-1 text-sm font-medium">{t('wordCounter.readability.topWords')}</h5>
                  <ol className="flex flex-wrap gap-1.5" data-testid="top-words">
                    {readability.topWords.map(({ word, count }) => (
                      <li key={word} className="rounded-full bg-blue-50 px-2.5 py-0.5 text-sm text-blue-900 dark:bg-blue-950 dark:text-blue-100">
                        {word} <span className="tabular-nums text-blue-700 dark:text-blue-300">×{number.format(count)}</span>
                      </li>
                    ))}
                  </ol>
                </div>
              )}
            </>
          )}
        </section>
      </CardContent>
    </Card>
  )
}

function Figure({ label, value, hint, stat }: { label: string; value: string; hint?: string; stat: string }) {
  return (
    <div className="rounded-lg border border-slate-200 p-2.5 dark:border-slate-700" data-readability={stat}>
      <dt className="text-xs text-slate-600 dark:text-slate-300">{label}</dt>
      <dd className="text-lg font-semibold tabular-nums">{value}</dd>
      {hint && <dd className="text-xs text-slate-600 dark:text-slate-300">{hint}</dd>}
    </div>
  )
}

/** The usual Flesch bands. */
function easeLevel(score: number): 'veryEasy' | 'easy' | 'standard' | 'difficult' | 'veryDifficult' {
  if (score >= 80) return 'veryEasy'
  if (score >= 60) return 'easy'
  if (score >= 50) return 'standard'
  if (score >= 30) return 'difficult'
  return 'veryDifficult'
}
