import { TempEmailTool } from '../../features/temp-email/components/temp-email-tool'

export function HomeRoute() {
  return (
    <main>
      <section id="tools">
        <TempEmailTool />
      </section>
    </main>
  )
}
