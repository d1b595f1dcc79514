import { Card } from '@tempbox/ui'
import type { LucideIcon } from 'lucide-react'

export function StatCard({ icon: Icon, value, label }: { icon: LucideIcon; value: string; label: string }) {
  return (
    <Card className="flex flex-col items-center gap-2 p-6 text-center">
      <Icon aria-hidden="true" className="size-8 text-blue-700 dark:text-blue-400" />
      <p className="text-3xl font-extrabold text-slate-900 dark:text-white" dir="ltr">{value}</p>
      <p className="text-sm font-medium text-slate-700 dark:text-slate-300">{label}</p>
    </Card>
  )
}
