import { lazy, Suspense, type ComponentType } from 'react'

/**
 * A header widget loaded right after the first render: its code (dialogs, menus, forms) stays out of the
 * home page's first-view bundle. The placeholder keeps the widget's box so nothing shifts.
 */
export function deferred<P extends object, M>(load: () => Promise<M>, pick: (m: M) => ComponentType<P>, placeholderClass = 'inline-block size-10') {
  const Lazy = lazy(async () => ({ default: pick(await load()) }))
  return function Deferred(props: P) {
    return (
      <Suspense fallback={<span className={placeholderClass} aria-hidden="true" />}>
        <Lazy {...props} />
      </Suspense>
    )
  }
}
