/** MailDev 3.0.0 as the bench's peer target: same smtp-server + mailparser stack, no durability. */
import { execSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { freePort, spawnUntil } from '../processes.js'
import { benchId } from './messages.js'
import type { Target } from './run-scenario.js'
import { DOMAIN, INBOX_COUNT, MAILDEV_DIR } from './settings.js'

/** Installs MailDev 3.0.0 into bench/.maildev on first use (kept out of git and of the pnpm workspace). */
function ensureMaildev(): string {
  const packageFile = join(MAILDEV_DIR, 'node_modules/maildev/package.json')
  const binOf = () => join(dirname(packageFile), (JSON.parse(readFileSync(packageFile, 'utf8')) as { bin: { maildev: string } }).bin.maildev)
  if (existsSync(packageFile)) return binOf()
  mkdirSync(MAILDEV_DIR, { recursive: true })
  writeFileSync(join(MAILDEV_DIR, 'package.json'), JSON.stringify({
    name: 'maildev-bench-peer',
    private: true,
    dependencies: { maildev: '3.0.0' },
    // Our registry lacks these exact versions; the nearest published ones work (see MACHINE-NOTES.md).
    overrides: { '@zone-eu/mailsplit': '5.4.19', 'encoding-japanese': '2.4.0', libqp: '2.1.2' },
  }, null, 2))
  console.log('[bench] installing MailDev 3.0.0 into bench/.maildev …')
  execSync('npm install --no-audit --no-fund --loglevel=error', { cwd: MAILDEV_DIR, stdio: 'inherit' })
  return binOf()
}

export async function startMaildev(): Promise<Target> {
  const bin = ensureMaildev()
  const mailDir = mkdtempSync(join(tmpdir(), 'maildev-bench-'))
  const [port, webPort] = [await freePort(), await freePort()]
  const proc = await spawnUntil(process.execPath, [bin, '--ip', '127.0.0.1', '--web-ip', '127.0.0.1', '-s', String(port), '-w', String(webPort), '--mail-directory', mailDir], {
    cwd: MAILDEV_DIR,
    readyText: 'Press Ctrl+C to stop',
  })
  const api = `http://127.0.0.1:${webPort}/api/email`
  return {
    name: 'MailDev 3.0.0',
    ports: [port],
    pids: [proc.child.pid!],
    recipient: (i) => `bench${i % INBOX_COUNT}@${DOMAIN}`,
    takeStored: async () => {
      // The summary listing, page by page (the full one holds every body), then each message's .eml download.
      const ids: string[] = []
      for (let skip = 0; ; skip += 200) {
        const res = await fetch(`${api}/summary?skip=${skip}&limit=200&sort=asc`)
        const page = (await res.json()) as { items?: Array<{ id: string }> }
        if (!Array.isArray(page.items)) throw new Error(`MailDev's /api/email/summary answered ${res.status}: ${JSON.stringify(page).slice(0, 200)}`)
        ids.push(...page.items.map((m) => m.id))
        if (page.items.length < 200) break
      }
      const byId = new Map<string, Buffer>()
      let unnamed = 0
      let nextIndex = 0
      const downloader = async () => {
        while (nextIndex < ids.length) {
          const res = await fetch(`${api}/${ids[nextIndex++]!}/download`)
          const source = Buffer.from(await res.arrayBuffer())
          const id = res.ok ? benchId(source) : undefined
          if (id === undefined) unnamed++
          else byId.set(id, source)
        }
      }
      await Promise.all(Array.from({ length: 8 }, downloader))
      await fetch(`${api}/all`, { method: 'DELETE' })
      return { byId, unnamed }
    },
    stop: async () => {
      await proc.stop()
      rmSync(mailDir, { recursive: true, force: true })
    },
  }
}
