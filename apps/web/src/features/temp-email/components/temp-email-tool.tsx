import type { MessageSummary } from '@tempbox/types'
import { useCallback, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { useCurrentAddress, type KeptAddress } from '../../../stores/current-address'
import { useAddressExpiry } from '../hooks/use-address-expiry'
import { useBurn } from '../hooks/use-burn'
import { useCopy } from '../hooks/use-copy'
import { useDeleteWithUndo } from '../hooks/use-delete-with-undo'
import { useGenerateAddress } from '../hooks/use-generate-address'
import { useInboxMessages } from '../hooks/use-inbox-messages'
import { useInboxSearch } from '../hooks/use-inbox-search'
import { useMessageSelection } from '../hooks/use-message-selection'
import { useNewMailNotices } from '../hooks/use-new-mail-notices'
import { useNotify } from '../hooks/use-notify'
import { useNow } from '../hooks/use-now'
import { useReadState } from '../hooks/use-read-state'
import { useReleaseAddress } from '../hooks/use-release-address'
import { AddressForm } from './address-form'
import { AddressPanel } from './address-panel'
import { BurnChoiceSelect } from './burn-choice-select'
import { BurnedNotice } from './burned-notice'
import { InboxSection } from './inbox-section'
import { KeptAddresses } from './kept-addresses'
import { ToolHeader } from './tool-header'

/** The temporary-email tool of the home page (spec §2, issues 2 and 3): it wires the address, its inbox and alerts. */
export function TempEmailTool() {
  const { t } = useTranslation('email')
  const notify = useNotify()
  const copy = useCopy(notify)
  const now = useNow(1000)
  const email = useCurrentAddress((s) => s.email)
  const expiresAt = useCurrentAddress((s) => s.expiresAt)
  const setAddress = useCurrentAddress((s) => s.setAddress)
  const forgetAddress = useCurrentAddress((s) => s.forget)
  const kept = useCurrentAddress((s) => s.addresses)
  const keptHeading = useRef<HTMLHeadingElement>(null)
  const selection = useMessageSelection(email)
  const inbox = useInboxMessages(email)
  const search = useInboxSearch(email)
  const deletion = useDeleteWithUndo(notify)
  const readState = useReadState(email)
  const burn = useBurn(email, readState.markRead, forgetAddress)
  const expiry = useAddressExpiry({ now, inboxError: inbox.error, isBurning: burn.isBurning, onExpired: selection.deselect, notify })
  const generator = useGenerateAddress(notify, (result) => {
    burn.setMode(result.email, result.burn)
    burn.clearBurned()
    selection.deselect()
    expiry.setExpired(false)
  })
  const releaser = useReleaseAddress(notify, generator.clearLimitError)

  const { select } = selection
  const openListed = useCallback(
    (message: MessageSummary | undefined, id: string) => {
      select(id)
      if (message) burn.open(message)
    },
    [burn, select],
  )
  const notices = useNewMailNotices({ email, inbox, open: openListed, notify, onCopyCode: (code) => void copy(code) })
  const showKept = () => {
    keptHeading.current?.scrollIntoView({ behavior: 'smooth', block: 'center' })
    keptHeading.current?.focus({ preventScroll: true })
  }
  const switchTo = (address: KeptAddress) => {
    setAddress(address.email, address.expiresAt)
    expiry.setExpired(false)
  }
  const showError = (message: string) => notify({ title: t('toast.errorTitle'), description: message, variant: 'destructive' })

  return (
    <section id="temp-email" aria-labelledby="temp-email-title" className="mx-auto w-full max-w-3xl px-1 py-6 sm:px-4">
      <div className="rounded-xl border border-slate-200 bg-white p-3 shadow-sm sm:p-6 dark:border-slate-700 dark:bg-slate-900">
        <ToolHeader />

        {email ? (
          <AddressPanel
            email={email}
            expiresAt={expiresAt}
            now={now}
            burnMode={burn.mode}
            unread={inbox.unread}
            unseen={notices.unseen}
            onShowInbox={notices.showInbox}
            onCopy={(text) => void copy(text)}
            onLifetimeChanged={(lifetime) => {
              setAddress(lifetime.email, lifetime.expiresAt)
              burn.setMode(lifetime.email, lifetime.burn)
              notify({ title: t('burn.changedTitle') })
            }}
            onError={showError}
          />
        ) : burn.burned ? (
          <BurnedNotice message={burn.burned.message} onCopyCode={(code) => void copy(code)} />
        ) : (
          <p className="mb-4 text-sm text-slate-600 dark:text-slate-400" role={expiry.expired ? 'alert' : undefined}>
            {expiry.expired ? t('expiredNotice') : t('noAddress')}
          </p>
        )}

        {/* With an address shown, its own panel above is the one "When should this address be deleted?". */}
        {!email && (
          <div className="mb-2">
            <BurnChoiceSelect value={generator.burnChoice} onChange={generator.setBurnChoice} disabled={generator.generating} />
          </div>
        )}
        <AddressForm
          pending={generator.generating}
          hasAddress={email !== null}
          error={generator.error}
          onGenerate={(choice) => void generator.generate(choice)}
          onReleaseOld={showKept}
        />

        <KeptAddresses
          ref={keptHeading}
          addresses={kept}
          current={email}
          now={now}
          releasing={releaser.releasing}
          onSwitch={switchTo}
          onRelease={(address) => void releaser.release(address)}
        />

        {email && (
          <InboxSection
            email={email}
            now={now}
            inbox={inbox}
            search={search}
            hidden={deletion.hidden}
            selection={selection}
            isUnread={readState.isUnread}
            onOpen={burn.open}
            onDelete={deletion.remove}
            onCopy={(text) => void copy(text)}
            onGone={expiry.expire}
            onOpenMessage={notices.openMessage}
            notify={notify}
            headingRef={notices.inboxHeading}
            listMarkerRef={notices.listMarkerRef}
          />
        )}
      </div>
      {releaser.dialog}
    </section>
  )
}
