import { buttonVariants, cn, fieldClass } from '@tempbox/ui'

export const primaryButton = buttonVariants()
export const secondaryButton = buttonVariants({ variant: 'outline' })
export const smallButton = cn(buttonVariants({ variant: 'outline', size: 'sm' }), 'h-auto gap-1 px-2 py-1 text-xs [&_svg]:size-3')
export const inputClass = cn(fieldClass, 'h-10')
