import { AdminSetupPage } from '../../features/admin-setup/components/admin-setup-page'

export function AdminSetupRoute() {
  return (
    <div className="mx-auto max-w-7xl px-4 py-10">
      <AdminSetupPage />
    </div>
  )
}
