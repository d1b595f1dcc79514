import { Toast, ToastClose, ToastDescription, ToastProvider, ToastTitle, ToastViewport } from './toast'
import { useToast } from './use-toast'

export type ToasterProps = {
  /** Translated accessible names: the close button and the viewport region ("{hotkey}" is replaced with F8). */
  closeLabel?: string
  viewportLabel?: string
}

/** Renders the toasts of `toast()`; mount once near the root. */
export function Toaster({ closeLabel, viewportLabel }: ToasterProps) {
  const { toasts } = useToast()
  return (
    <ToastProvider label={viewportLabel}>
      {toasts.map(({ id, title, description, action, ...props }) => (
        <Toast key={id} {...props}>
          <div className="grid gap-1">
            {title && <ToastTitle>{title}</ToastTitle>}
            {description && <ToastDescription>{description}</ToastDescription>}
          </div>
          {action}
          <ToastClose label={closeLabel} />
        </Toast>
      ))}
      <ToastViewport label={viewportLabel} />
    </ToastProvider>
  )
}
