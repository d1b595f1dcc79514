import {
  Button,
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
  Tabs,
  TabsContent,
  TabsList,
  TabsTrigger,
} from '@tempbox/ui'
import { User } from 'lucide-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useCurrentUser } from '../../../lib/current-user'
import { AccountPanel } from './account-panel'
import { LoginForm } from './login-form'
import { RegisterForm } from './register-form'

/** The header's account button and dialog (spec §2): Sign In / Create Account, or the account when signed in. */
export function AccountDialog() {
  const { t } = useTranslation('account')
  const { user } = useCurrentUser()
  const [open, setOpen] = useState(false)
  // Opening a saved inbox moves focus to it: the dialog must not hand focus back to its trigger as it closes.
  const [keepFocus, setKeepFocus] = useState(false)
  const close = () => setOpen(false)
  const closeTo = () => {
    setKeepFocus(true)
    setOpen(false)
  }

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="ghost" size="sm" aria-label={user ? t('trigger.account') : t('trigger.signIn')} data-testid="account-trigger">
          <User aria-hidden />
          <span className="hidden max-w-40 truncate sm:inline">{user ? (user.username ?? user.email) : t('trigger.signIn')}</span>
        </Button>
      </DialogTrigger>
      <DialogContent
        closeLabel={t('close')}
        className="sm:max-w-md"
        onCloseAutoFocus={(event) => {
          if (keepFocus) event.preventDefault()
          setKeepFocus(false)
        }}
      >
        {user ? (
          <>
            <DialogHeader>
              <DialogTitle>{t('account.title')}</DialogTitle>
              <DialogDescription>{t('account.description')}</DialogDescription>
            </DialogHeader>
            <AccountPanel user={user} onDone={close} onOpenInbox={closeTo} />
          </>
        ) : (
          <>
            <DialogHeader>
              <DialogTitle>{t('title')}</DialogTitle>
              <DialogDescription>{t('description')}</DialogDescription>
            </DialogHeader>
            <Tabs defaultValue="signin">
              <TabsList className="grid w-full grid-cols-2">
                <TabsTrigger value="signin">{t('tabs.signIn')}</TabsTrigger>
                <TabsTrigger value="register">{t('tabs.register')}</TabsTrigger>
              </TabsList>
              <TabsContent value="signin">
                <LoginForm onDone={close} />
              </TabsContent>
              <TabsContent value="register">
                <RegisterForm onDone={close} />
              </TabsContent>
            </Tabs>
          </>
        )}
      </DialogContent>
    </Dialog>
  )
}
