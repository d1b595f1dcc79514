import { ToastAction } from '@tempbox/ui'
import { useTranslation } from 'react-i18next'
import { useSWRConfig } from 'swr'
import { removeMessage } from '../lib/inbox-cache'
import type { Notify } from './use-notify'
import { UNDO_DELETE_MS, useUndoableDelete } from './use-undoable-delete'

/** Deleting a message from the inbox, with the toast that offers Undo while the server has not been asked yet. */
export function useDeleteWithUndo(notify: Notify) {
  const { t } = useTranslation('email')
  const { mutate } = useSWRConfig()
  const deletion = useUndoableDelete({
    onDeleted: (address, id) => void removeMessage(mutate, address, id),
    onFailed: () => notify({ title: t('toast.errorTitle'), description: t('toast.deleteFailed'), variant: 'destructive' }),
  })

  const remove = (email: string, id: string) => {
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

  return { hidden: deletion.hidden, remove }
}
