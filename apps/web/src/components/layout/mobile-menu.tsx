import { Button, Dialog, DialogContent, DialogDescription, DialogTitle, DialogTrigger, Separator } from '@tempbox/ui'
import { Menu } from 'lucide-react'
import { useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { Logo } from './logo'
import { NAV_LINKS } from './nav-links'
import { StoreButtons } from './store-buttons'

/** The side menu of small screens, with the header's links (spec §2). */
export function MobileMenu({ isAdmin, settings }: { isAdmin: boolean; settings?: ReactNode }) {
  const { t } = useTranslation('common')
  const [isOpen, setIsOpen] = useState(false)
  const close = () => setIsOpen(false)
  return (
    <Dialog open={isOpen} onOpenChange={setIsOpen}>
      <DialogTrigger asChild>
        <Button variant="ghost" size="icon" className="md:hidden" aria-label={t('a11y.openMenu')} data-testid="mobile-menu-trigger">
          <Menu aria-hidden="true" />
        </Button>
      </DialogTrigger>
      <DialogContent
        closeLabel={t('a11y.closeMenu')}
        className="start-auto end-0 top-0 h-dvh max-h-dvh w-72 max-w-[85vw] translate-x-0 translate-y-0 content-start rounded-none ltr:translate-x-0 rtl:translate-x-0"
      >
        <DialogTitle asChild>
          <div>
            <Logo onNavigate={close} />
          </div>
        </DialogTitle>
        <DialogDescription className="sr-only">{t('a11y.mobileMenuDescription')}</DialogDescription>
        <nav aria-label={t('a11y.mainNav')}>
          <ul className="flex flex-col gap-1">
            {NAV_LINKS.filter((l) => !('isAdminOnly' in l) || isAdmin).map((l) => (
              <li key={l.key}>
                <Link to={l.to} onClick={close} className="block rounded-md px-3 py-2 font-medium hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-600 dark:hover:bg-slate-800">
                  {t(`nav.${l.key}`)}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <Separator />
        {settings}
        <StoreButtons className="flex-col" />
      </DialogContent>
    </Dialog>
  )
}
