import { cn } from '@tempbox/ui'

export function SectionHeading({ id, title, subtitle, className }: { id?: string; title: string; subtitle?: string; className?: string }) {
  return (
    <div className={cn('mx-auto mb-10 max-w-3xl text-center', className)}>
      <h2 id={id} className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl dark:text-white">{title}</h2>
      {subtitle && <p className="mt-3 text-lg text-slate-700 dark:text-slate-300">{subtitle}</p>}
    </div>
  )
}
