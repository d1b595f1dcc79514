import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { notificationSupport, primeSound, requestNotifications, useMailAlertPrefs, type NotificationSupport } from '../lib/new-mail-alerts'

const checkbox = 'h-4 w-4 rounded border-slate-300 text-blue-600 focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-slate-600'

/** Opt-in alerts for new mail: desktop notifications (permission asked only when turned on) and a chime, both off at first. */
export function NewMailAlertsSettings() {
  const { t } = useTranslation('email')
  const desktop = useMailAlertPrefs((s) => s.desktop)
  const sound = useMailAlertPrefs((s) => s.sound)
  const setDesktop = useMailAlertPrefs((s) => s.setDesktop)
  const setSound = useMailAlertPrefs((s) => s.setSound)
  const [support, setSupport] = useState<NotificationSupport>(notificationSupport)
  const [asking, setAsking] = useState(false)

  const toggleDesktop = async (on: boolean) => {
    if (!on) {
      setDesktop(false)
      return
    }
    setAsking(true)
    try {
      const answer = await requestNotifications()
      setSupport(answer)
      setDesktop(answer === 'granted')
    } finally {
      setAsking(false)
    }
  }

  const toggleSound = (on: boolean) => {
    // Turning it on is the user gesture browsers require before a page may make sound.
    if (on) primeSound()
    setSound(on)
  }

  const problem = support === 'unsupported' ? t('alerts.unsupported') : support === 'denied' ? t('alerts.blocked') : null
  return (
    <fieldset className="mt-3 rounded-lg border border-slate-200 px-3 py-2 text-sm dark:border-slate-700" data-testid="mail-alerts">
      <legend className="px-1 font-medium text-slate-700 dark:text-slate-300">{t('alerts.title')}</legend>
      <div className="flex flex-wrap gap-x-6 gap-y-1">
        <label className="flex items-center gap-2 text-slate-700 dark:text-slate-300">
          <input
            type="checkbox"
            className={checkbox}
            checked={desktop && support === 'granted'}
            disabled={asking || support === 'unsupported'}
            aria-describedby="mail-alerts-hint"
            onChange={(e) => void toggleDesktop(e.currentTarget.checked)}
          />
          {t('alerts.desktop')}
        </label>
        <label className="flex items-center gap-2 text-slate-700 dark:text-slate-300">
          <input type="checkbox" className={checkbox} checked={sound} onChange={(e) => toggleSound(e.currentTarget.checked)} />
          {t('alerts.sound')}
        </label>
      </div>
      <p id="mail-alerts-hint" className="mt-1 text-xs text-slate-500 dark:text-slate-400" role={problem ? 'status' : undefined}>
        {problem ?? t('alerts.desktopHint')}
      </p>
    </fieldset>
  )
}
