import { useToast, type ToastOptions } from '@tempbox/ui'

export type Notify = (notice: ToastOptions) => void

/** The tool's toast function: the shared kit's single toast (spec §4). */
export function useNotify(): Notify {
  return useToast().toast
}
