import type { ReactNode } from 'react'

/** The heading band at the top of the inner pages. */
export function PageHero({ title, subtitle, children }: { title: string; subtitle?: string; children?: ReactNode }) {
  return (
    <section className="bg-gradient-to-b from-blue-50 to-white px-4 py-14 text-center sm:py-20 dark:from-slate-900 dark:to-slate-950">
      <div className="mx-auto max-w-3xl">
        <h1 className="text-4xl font-extrabold tracking-tight text-slate-900 sm:text-5xl dark:text-white">{title}</h1>
        {subtitle && <p className="mt-4 text-lg text-slate-700 dark:text-slate-300">{subtitle}</p>}
        {children}
      </div>
    </section>
  )
}
