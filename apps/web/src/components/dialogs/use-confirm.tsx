import { Button, Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@tempbox/ui'
import { useCallback, useRef, useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'

export interface ConfirmOptions {
  title: string
  description: ReactNode
  /** The button that goes ahead, named for what it does ("Release", "Delete Account"). */
  confirmLabel: string
  destructive?: boolean
}

/**
 * Our own confirmation in place of `window.confirm`: in the page's language and theme, reachable by screen readers,
 * and testable. `confirm` resolves true when the reader goes ahead; Cancel, Escape or a click outside resolve false.
 */
export function useConfirm(): { confirm: (options: ConfirmOptions) => Promise<boolean>; dialog: ReactNode } {
  const { t } = useTranslation('common')
  const [options, setOptions] = useState<ConfirmOptions | null>(null)
  const answer = useRef<((ok: boolean) => void) | null>(null)

  const confirm = useCallback((next: ConfirmOptions) => {
    answer.current?.(false)
    setOptions(next)
    return new Promise<boolean>((resolve) => {
      answer.current = resolve
    })
  }, [])

  const close = (ok: boolean) => {
    answer.current?.(ok)
    answer.current = null
    setOptions(null)
  }

  const dialog = (
    <Dialog open={options !== null} onOpenChange={(open) => !open && close(false)}>
      {options && (
        <DialogContent closeLabel={t('actions.close')} showClose={false} data-testid="confirm-dialog">
          <DialogHeader>
            <DialogTitle>{options.title}</DialogTitle>
            <DialogDescription>{options.description}</DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button variant="outline" onClick={() => close(false)}>
              {t('actions.cancel')}
            </Button>
            <Button variant={options.destructive ? 'destructive' : 'default'} onClick={() => close(true)}>
              {options.confirmLabel}
            </Button>
          </DialogFooter>
        </DialogContent>
      )}
    </Dialog>
  )
  return { confirm, dialog }
}
