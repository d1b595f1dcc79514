import type { MessageSummary } from '@tempbox/types'
import { ToastAction } from '@tempbox/ui'
import { Copy, Mail, RefreshCw } from 'lucide-react'
import { useCallback, useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useSWRConfig } from 'swr'
import { useConfirm } from '../../../components/dialogs/use-confirm'
import { ApiError } from '../../../lib/api-client'
import { dropExpiredAddresses, useCurrentAddress, type KeptAddress } from '../../../stores/current-address'
import { MessageViewer } from '../message-viewer/components/message-viewer'
import { generateEmail, inboxUrl, refreshInbox, releaseAddress } from '../api/inbox'
import { useEmailStream } from '../hooks/use-email-stream'
import { useInboxMessages } from '../hooks/use-inbox-messages'
import { useInboxSearch } from '../hooks/use-inbox-search'
import { useNotify } from '../hooks/use-notify'
import { useNewMailToast } from '../hooks/use-new-mail-toast'
import { useNewMailAlerts } from '../hooks/use-new-mail-alerts'
import { useNow } from '../hooks/use-now'
import { useReadState } from '../hooks/use-read-state'
import { useUnreadTitle } from '../hooks/use-unread-title'
import { UNDO_DELETE_MS, useUndoableDelete } from '../hooks/use-undoable-delete'
import { copyText } from '../lib/clipboard'
import { countdown } from '../lib/format'
import { removeMessage } from '../lib/inbox-cache'
import { AddressForm, type GenerateError } from './address-form'
import { BurnChoiceSelect } from './burn-choice-select'
import { BurnPanel } from './burn-panel'
import { BurnedNotice } from './burned-notice'
import { DeliveryLog } from './delivery-log'
import { useBurn } from '../hooks/use-burn'
import { burnFields, type BurnChoice } from '../lib/burn'
import { KeptAddresses } from './kept-addresses'
import { MessageList } from './message-list'
import { NewMailAlertsSettings } from './new-mail-alerts-settings'
import { NewMailPill } from './new-mail-pill'
import { OlderMessages } from './older-messages'
import { SearchBox } from './search-box'
import { secondaryButton } from './styles'

function isGone(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404
}

/** The temporary-email tool of the home page (spec §2, issues 2 and 3). */
export function TempEmailTool() {
  const { t } = useTranslation('email')
  const notify = useNotify()
  const { confirm, dialog } = useConfirm()
  const { mutate } = useSWRConfig()
  const email = useCurrentAddress((s) => s.email)
  const expiresAt = useCurrentAddress((s) => s.expiresAt)
  const setAddress = useCurrentAddress((s) => s.setAddress)
  const clearAddress = useCurrentAddress((s) => s.clear)
  const forgetAddress = useCurrentAddress((s) => s.forget)
  const kept = useCurrentAddress((s) => s.addresses)
  const [generateError, setGenerateError] = useState<GenerateError | null>(null)
  const [releasing, setReleasing] = useState<string | null>(null)
  const keptHeading = useRef<HTMLHeadingElement>(null)
  const [generating, setGenerating] = useState(false)
  const [checking, setChecking] = useState(false)
  const [expandedId, setExpandedId] = useState<string | null>(null)
  const [expired, setExpired] = useState(false)
  const now = useNow(1000)
  const inbox = useInboxMessages(email)
  const search = useInboxSearch(email)
  const deletion = useUndoableDelete({
    onDeleted: (address, id) => void removeMessage(mutate, address, id),
    onFailed: () => notify({ title: t('toast.errorTitle'), description: t('toast.deleteFailed'), variant: 'destructive' }),
  })

  useEffect(() => dropExpiredAddresses(now), [now])

  const readState = useReadState(email)
  const burn = useBurn(email, readState.markRead, forgetAddress)
  const [burnChoice, setBurnChoice] = useState<BurnChoice>('none')
  const { isBurning } = burn

  const handleExpired = useCallback(() => {
    // Its stream ends while the read that burns it is answered: the burn, not expiry, is what the reader is told.
    if (isBurning()) return
    clearAddress()
    setExpandedId(null)
    setExpired(true)
    notify({ title: t('toast.expiredTitle'), description: t('expiredNotice'), variant: 'destructive' })
  }, [clearAddress, notify, t, isBurning])

  useEmailStream(email, handleExpired)

  useUnreadTitle(email ? inbox.unread : 0)
  // A notification (or the delivery log's link) clicked opens its message, which is then read like any opened one.
  const openFromNotification = useCallback(
    (id: string) => {
      setExpandedId(id)
      const message = inbox.newest?.find((m) => m.id === id)
      if (message) burn.open(message)
      requestAnimationFrame(() => document.getElementById(`message-row-${id}`)?.scrollIntoView?.({ block: 'center' }))
    },
    [inbox.newest, burn],
  )
  useNewMailAlerts(email, inbox.newest, openFromNotification)

  // Another inbox was switched in (e.g. from the saved addresses of an account): nothing of the old one stays open.
  useEffect(() => setExpandedId(null), [email])

  useEffect(() => {
    if (email && isGone(inbox.error)) handleExpired()
  }, [email, inbox.error, handleExpired])

  useEffect(() => {
    if (email && expiresAt !== null && expiresAt <= now) handleExpired()
  }, [email, expiresAt, now, handleExpired])

  const generate = async (choice: { localPart?: string; domain?: string }) => {
    setGenerating(true)
    try {
      const result = await generateEmail({ ...choice, ...burnFields(burnChoice) })
      setAddress(result.email, result.expiresAt)
      burn.setMode(result.email, result.burn)
      burn.clearBurned()
      setExpandedId(null)
      setExpired(false)
      setGenerateError(null)
      notify({ title: t('toast.generatedTitle'), description: t('toast.generatedText', { email: result.email }) })
      // The pressed button was disabled while pending, which drops focus to <body>: it goes to the new address.
      requestAnimationFrame(() => document.getElementById('temp-email-address')?.focus({ preventScroll: true }))
    } catch (error) {
      // A chosen name the server refuses (taken, reserved, malformed) and the per-client limits are said once, at the
      // form; only an unexplained failure is a toast. The active-address limit counts per network (everyone behind one
      // IP) and offers to release an old address: releasing one does not lift the hourly limit, which only time does.
      const refusal = error instanceof ApiError ? error : null
      const next: GenerateError | null =
        refusal?.code === 'too_many_active_addresses'
          ? { kind: 'limit', message: t('limitNetwork') }
          : refusal?.code === 'rate_limited'
            ? { kind: 'other', message: refusal.message }
            : choice.localPart && refusal && (refusal.status === 400 || refusal.status === 409)
              ? { kind: 'name', message: refusal.message }
              : null
      setGenerateError(next)
      if (!next) notify({ title: t('toast.errorTitle'), description: t('toast.generateFailed'), variant: 'destructive' })
    } finally {
      setGenerating(false)
    }
  }

  const copy = async (text: string) => {
    if (await copyText(text)) notify({ title: t('toast.copiedTitle'), description: text })
    else notify({ title: t('toast.copyFailedTitle'), description: t('toast.copyFailedText'), variant: 'destructive' })
  }

  // Mail that arrives while the message list is scrolled away is announced in a toast and the pill by the address.
  const [inboxList, setInboxList] = useState<HTMLDivElement | null>(null)
  const inboxHeading = useRef<HTMLHeadingElement>(null)
  const { unseen } = useNewMailToast(email, inbox.messages, inboxList, notify, (code) => void copy(code))
  const showInbox = () => {
    inboxHeading.current?.scrollIntoView({ behavior: 'smooth', block: 'start' })
    inboxHeading.current?.focus({ preventScroll: true })
  }

  const check = async () => {
    if (!email) return
    setChecking(true)
    try {
      const data = await refreshInbox(email)
      await mutate(inboxUrl(email), data, { revalidate: false })
      const count = data.total
      notify({ title: t('toast.refreshedTitle'), description: count > 0 ? t('toast.found', { count }) : t('toast.noNew') })
    } catch (error) {
      if (isGone(error)) handleExpired()
      else notify({ title: t('toast.errorTitle'), description: t('toast.refreshFailed'), variant: 'destructive' })
    } finally {
      setChecking(false)
    }
  }

  const onDelete = (id: string) => {
    if (!email) return
    setExpandedId(null)
    deletion.remove(email, id)
    notify({
      title: t('toast.deletedTitle'),
      duration: UNDO_DELETE_MS,
      action: (
        <ToastAction altText={t('toast.undoDelete')} onClick={() => deletion.undo(id)}>
          {t('toast.undo')}
        </ToastAction>
      ),
    })
  }

  // Closing (Escape, Close) puts focus back on the message's row rather than losing it with the panel.
  const closeMessage = (id: string) => {
    setExpandedId(null)
    requestAnimationFrame(() => document.getElementById(`message-row-${id}`)?.focus())
  }

  const switchTo = (address: KeptAddress) => {
    setAddress(address.email, address.expiresAt)
    setExpired(false)
  }

  const release = async (address: string) => {
    const ok = await confirm({
      title: t('kept.releaseTitle'),
      description: t('kept.releaseConfirm', { email: address }),
      confirmLabel: t('kept.release'),
      destructive: true,
    })
    if (!ok) return
    setReleasing(address)
    try {
      await releaseAddress(address)
      forgetAddress(address)
      setGenerateError((current) => (current?.kind === 'limit' ? null : current))
      notify({ title: t('toast.releasedTitle'), description: t('toast.releasedText', { email: address }) })
    } catch (error) {
      // Already gone on the server (expired, or released from another tab): nothing is left to keep.
      if (isGone(error)) forgetAddress(address)
      else notify({ title: t('toast.errorTitle'), description: error instanceof ApiError ? error.message : t('toast.releaseFailed'), variant: 'destructive' })
    } finally {
      setReleasing(null)
    }
  }

  const showKept = () => {
    keptHeading.current?.scrollIntoView({ behavior: 'smooth', block: 'center' })
    keptHeading.current?.focus({ preventScroll: true })
  }

  const loadOlder = async () => {
    try {
      await (search.active ? search.loadOlder() : inbox.loadOlder())
    } catch (error) {
      if (isGone(error)) handleExpired()
      else notify({ title: t('toast.errorTitle'), description: t('toast.loadOlderFailed'), variant: 'destructive' })
    }
  }

  // A message deleted a moment ago stays out of the list while its Undo is open.
  const listed = search.active ? search : inbox
  const messages = listed.messages.filter((m) => !deletion.hidden.has(m.id))
  const total = listed.total - (listed.messages.length - messages.length)
  // A query the server refuses (too long, a bad date, is:unread) shows its sentence where the results would be.
  const searchError = search.active && search.error instanceof ApiError ? search.error.message : null

  return (
    <section id="temp-email" aria-labelledby="temp-email-title" className="mx-auto w-full max-w-3xl px-1 py-6 sm:px-4">
      <div className="rounded-xl border border-slate-200 bg-white p-3 shadow-sm sm:p-6 dark:border-slate-700 dark:bg-slate-900">
        <header className="mb-4 flex items-start gap-3">
          <Mail className="mt-1 h-6 w-6 shrink-0 text-blue-600 dark:text-blue-400" aria-hidden />
          <div>
            <h2 id="temp-email-title" className="text-xl font-semibold text-slate-900 dark:text-slate-50">
              {t('title')}
            </h2>
            <p className="text-sm text-slate-600 dark:text-slate-400">{t('subtitle')}</p>
          </div>
        </header>

        {email ? (
          <div className="mb-4 space-y-2">
            <label htmlFor="temp-email-address" className="block text-sm font-medium text-slate-700 dark:text-slate-300">
              {t('addressLabel')}
            </label>
            <div className="flex flex-col gap-2 sm:flex-row">
              <input
                id="temp-email-address"
                readOnly
                value={email}
                onFocus={(e) => e.currentTarget.select()}
                className="min-h-10 w-full min-w-0 flex-1 rounded-md border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-sm text-slate-900 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100"
              />
              <button type="button" onClick={() => void copy(email)} className={secondaryButton}>
                <Copy className="h-4 w-4" aria-hidden />
                {t('copy')}
              </button>
            </div>
            {expiresAt !== null && (
              <p className="text-xs text-slate-500 dark:text-slate-400" data-testid="expiry">
                {t('expiresIn', { time: countdown(expiresAt, now) })}
              </p>
            )}
            {unseen > 0 && <NewMailPill count={unseen} onShow={showInbox} />}
            {expiresAt !== null && (
              <BurnPanel
                key={email}
                email={email}
                mode={burn.mode}
                expiresAt={expiresAt}
                now={now}
                unread={inbox.unread}
                onChanged={(lifetime) => {
                  setAddress(lifetime.email, lifetime.expiresAt)
                  burn.setMode(lifetime.email, lifetime.burn)
                  notify({ title: t('burn.changedTitle') })
                }}
                onError={(message) => notify({ title: t('toast.errorTitle'), description: message, variant: 'destructive' })}
              />
            )}
          </div>
        ) : burn.burned ? (
          <BurnedNotice message={burn.burned.message} onCopyCode={(code) => void copy(code)} />
        ) : (
          <p className="mb-4 text-sm text-slate-600 dark:text-slate-400" role={expired ? 'alert' : undefined}>
            {expired ? t('expiredNotice') : t('noAddress')}
          </p>
        )}

        {/* With an address shown, its own panel above is the one "When should this address be deleted?". */}
        {!email && (
          <div className="mb-2">
            <BurnChoiceSelect value={burnChoice} onChange={setBurnChoice} disabled={generating} />
          </div>
        )}
        <AddressForm
          pending={generating}
          hasAddress={email !== null}
          error={generateError}
          onGenerate={(choice) => void generate(choice)}
          onReleaseOld={showKept}
        />

        <KeptAddresses
          ref={keptHeading}
          addresses={kept}
          current={email}
          now={now}
          releasing={releasing}
          onSwitch={switchTo}
          onRelease={(address) => void release(address)}
        />

        {email && (
          <div className="mt-6">
            <div className="mb-2 flex items-center justify-between gap-2">
              <h3 ref={inboxHeading} tabIndex={-1} className="scroll-mt-20 text-lg font-semibold text-slate-900 focus:outline-none dark:text-slate-50">
                {/* Both counts are the whole inbox's; while filtering, the matches have their own label. Spaces between the
                    pills keep the heading's name apart too ("Inbox (2) Matches: 0 Unread: 2", not "(2)Matches"). */}
                {t('inbox')} <span className="text-sm font-normal text-slate-500 dark:text-slate-400">({search.active ? inbox.total : total})</span>
                {search.active && !search.searching && (
                  <>{' '}<span className="ms-1 inline-block rounded-full bg-slate-100 whitespace-nowrap px-2 py-0.5 text-xs font-semibold text-slate-700 dark:bg-slate-800 dark:text-slate-200" data-testid="match-count">
                    {t('search.matches', { count: total })}
                  </span></>
                )}
                {inbox.unread > 0 && (
                  <>{' '}<span className="ms-1 inline-block rounded-full bg-blue-100 whitespace-nowrap px-2 py-0.5 text-xs font-semibold text-blue-800 dark:bg-blue-900/60 dark:text-blue-200" data-testid="unread-count">
                    {t('alerts.unreadCount', { count: inbox.unread })}
                  </span></>
                )}
              </h3>
              <button type="button" onClick={() => void check()} disabled={checking} className={secondaryButton}>
                <RefreshCw className={`h-4 w-4 ${checking ? 'animate-spin' : ''}`} aria-hidden />
                {checking ? t('checking') : t('check')}
              </button>
            </div>
            {(inbox.total > 0 || search.text !== '') && <SearchBox value={search.text} onChange={search.setText} onClear={search.clear} />}
            {/* Where a new row appears: the new-mail pill and toast watch this line, not the whole tool. */}
            <div ref={setInboxList} aria-hidden />
            {messages.length === 0 ? (
              <p
                role={search.active ? 'status' : undefined}
                className="rounded-lg border border-dashed border-slate-300 p-6 text-center text-sm text-slate-500 dark:border-slate-600 dark:text-slate-400"
              >
                {searchError ?? (search.active ? (search.searching ? '' : search.cut ? t('search.cut') : t('search.noMatches')) : t('empty'))}
              </p>
            ) : (
              <MessageList
                messages={messages}
                now={now}
                expandedId={expandedId}
                isUnread={readState.isUnread}
                onToggle={(id) => {
                  const message = messages.find((m) => m.id === id)
                  if (message && expandedId !== id) burn.open(message)
                  setExpandedId((current) => (current === id ? null : id))
                }}
                onCopyCode={(code) => void copy(code)}
                renderExpanded={(message: MessageSummary) => (
                  <MessageViewer
                    address={email}
                    id={message.id}
                    onClose={() => closeMessage(message.id)}
                    onDelete={() => onDelete(message.id)}
                  />
                )}
              />
            )}
            <NewMailAlertsSettings />
            {search.active && search.cut && messages.length > 0 && (
              <p role="status" className="text-center text-sm text-slate-500 dark:text-slate-400">
                {t('search.cut')}
              </p>
            )}
            {(messages.length > 0 || (search.active && search.cut)) && (
              <OlderMessages shown={messages.length} total={total} hasMore={listed.hasMore} loading={listed.loadingOlder} onLoad={() => void loadOlder()} />
            )}
            <DeliveryLog email={email} onOpenMessage={openFromNotification} />
          </div>
        )}
      </div>
      {dialog}
    </section>
  )
}
