export { cn } from './cn'
export { Badge, badgeVariants } from './badge'
export { Button, buttonVariants, type ButtonProps } from './button'
export { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from './card'
export {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogOverlay,
  DialogPortal,
  DialogTitle,
  DialogTrigger,
  type DialogContentProps,
} from './dialog'
export {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuGroup,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from './dropdown-menu'
export { FieldError } from './field-error'
export { fieldClass, Input, Textarea } from './input'
export { Label } from './label'
export { ScrollArea, ScrollBar } from './scroll-area'
export { Separator } from './separator'
export { Tabs, TabsContent, TabsList, TabsTrigger } from './tabs'
export {
  Toast,
  ToastAction,
  ToastClose,
  ToastDescription,
  ToastProvider,
  ToastTitle,
  ToastViewport,
  TOAST_DURATION_MS,
  type ToastActionElement,
  type ToastVariant,
} from './toast'
export { Toaster, type ToasterProps } from './toaster'
export { Tooltip, TooltipContent, TooltipProvider, TooltipTrigger, TOOLTIP_DELAY_MS, TOOLTIP_SKIP_DELAY_MS } from './tooltip'
export { dismissToast, toast, useToast, type ToasterToast, type ToastOptions } from './use-toast'
