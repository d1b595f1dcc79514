import { cva, type VariantProps } from 'class-variance-authority'
import { XIcon } from 'lucide-react'
import { Toast as ToastPrimitive } from 'radix-ui'
import type { ComponentProps, ReactElement } from 'react'
import { cn } from './cn'

// Spec §9: 5000 ms display, swipe right with a 50 px threshold, F8 focuses the viewport.
export const TOAST_DURATION_MS = 5000

export function ToastProvider(props: ComponentProps<typeof ToastPrimitive.Provider>) {
  return <ToastPrimitive.Provider duration={TOAST_DURATION_MS} swipeDirection="right" swipeThreshold={50} {...props} />
}

export function ToastViewport({ className, ...props }: ComponentProps<typeof ToastPrimitive.Viewport>) {
  return (
    <ToastPrimitive.Viewport
      hotkey={['F8']}
      className={cn(
        // Phones: at the bottom, above the scroll buttons (bottom-6, two 36 px buttons), never over the header.
        'pointer-events-none fixed bottom-28 z-[100] flex max-h-screen w-full flex-col p-4 sm:bottom-0 sm:end-0 md:max-w-[420px]',
        className,
      )}
      {...props}
    />
  )
}

const toastVariants = cva(
  'group pointer-events-auto relative flex w-full items-center justify-between gap-4 overflow-hidden rounded-md border p-5 pe-8 shadow-lg transition-all ' +
    'data-[swipe=cancel]:translate-x-0 data-[swipe=end]:translate-x-[var(--radix-toast-swipe-end-x)] data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[swipe=move]:transition-none',
  {
    variants: {
      variant: {
        default: 'border-slate-200 bg-white text-slate-900 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100',
        destructive: 'destructive group border-red-700 bg-red-700 text-white',
      },
    },
    defaultVariants: { variant: 'default' },
  },
)

export type ToastVariant = NonNullable<VariantProps<typeof toastVariants>['variant']>

export function Toast({ className, variant, ...props }: ComponentProps<typeof ToastPrimitive.Root> & VariantProps<typeof toastVariants>) {
  return <ToastPrimitive.Root data-slot="toast" data-variant={variant ?? 'default'} className={cn(toastVariants({ variant }), className)} {...props} />
}

export function ToastAction({ className, ...props }: ComponentProps<typeof ToastPrimitive.Action>) {
  return (
    <ToastPrimitive.Action
      className={cn(
        'inline-flex h-8 shrink-0 cursor-pointer items-center justify-center rounded-md border border-slate-300 bg-transparent px-3 text-sm font-medium hover:bg-slate-100 ' +
          'focus-visible:outline-2 focus-visible:outline-blue-600 group-[.destructive]:border-white/40 group-[.destructive]:hover:bg-red-800 dark:hover:bg-slate-800',
        className,
      )}
      {...props}
    />
  )
}

export function ToastClose({ className, label = 'Close', ...props }: ComponentProps<typeof ToastPrimitive.Close> & { label?: string }) {
  return (
    <ToastPrimitive.Close
      aria-label={label}
      className={cn(
        'absolute end-2 top-2 cursor-pointer rounded-md p-1 text-slate-600 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-blue-600 ' +
          'group-[.destructive]:text-white dark:text-slate-300 dark:hover:text-white',
        className,
      )}
      {...props}
    >
      <XIcon className="size-4" aria-hidden="true" />
    </ToastPrimitive.Close>
  )
}

export function ToastTitle({ className, ...props }: ComponentProps<typeof ToastPrimitive.Title>) {
  return <ToastPrimitive.Title className={cn('text-sm font-semibold', className)} {...props} />
}

export function ToastDescription({ className, ...props }: ComponentProps<typeof ToastPrimitive.Description>) {
  return <ToastPrimitive.Description className={cn('text-sm opacity-90', className)} {...props} />
}

export type ToastActionElement = ReactElement<typeof ToastAction>
