#!/usr/bin/env node
// Before `pnpm test`: the system programs the suites drive (Chromium, PostgreSQL's server, HAProxy, python3, openssl).
// As root with apt-get, what is missing is installed (one line each); otherwise the run stops at once with the command
// to run, instead of failing twenty minutes later in the one test that needs it.
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'

const POSTGRES_ROOT = '/usr/lib/postgresql'
// Playwright drives a Chromium over CDP; majors far behind the one it was built for lack protocol it uses.
const CHROMIUM_MAJORS_BEHIND = 8

const onPath = (command) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0
const executable = (path) => existsSync(path)

// tests/support/browser.ts: the headless shell runs the e2e suite, the full browser what the shell lacks.
const chromiumPath = () => process.env.CHROMIUM_PATH || '/usr/bin/chromium'
const headlessShellPath = () => process.env.CHROMIUM_HEADLESS_SHELL_PATH || '/usr/bin/chromium-headless-shell'

function playwrightChromiumMajor() {
  const require = createRequire(join(process.cwd(), 'tests', 'package.json'))
  const browsers = JSON.parse(readFileSync(join(require.resolve('playwright-core/package.json'), '..', 'browsers.json'), 'utf8'))
  const chromium = browsers.browsers.find((b) => b.name === 'chromium')
  return Number(String(chromium.browserVersion).split('.')[0])
}

function chromiumMajor(path) {
  const out = execFileSync(path, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
  const match = /(\d+)\.\d+\.\d+/.exec(out)
  return match ? Number(match[1]) : NaN
}

const needs = [
  { what: 'Chromium (end-to-end tests)', apt: 'chromium', present: () => executable(chromiumPath()), env: 'CHROMIUM_PATH' },
  {
    what: "Chromium's headless shell (end-to-end tests)",
    apt: 'chromium-headless-shell',
    present: () => executable(headlessShellPath()),
    env: 'CHROMIUM_HEADLESS_SHELL_PATH',
  },
  {
    what: "PostgreSQL's server (storage tests on PostgreSQL)",
    apt: 'postgresql',
    present: () => existsSync(POSTGRES_ROOT) && readdirSync(POSTGRES_ROOT).some((v) => existsSync(join(POSTGRES_ROOT, v, 'bin', 'initdb'))),
  },
  { what: 'HAProxy (PROXY protocol test)', apt: 'haproxy', present: () => executable(process.env.HAPROXY_PATH ?? '/usr/sbin/haproxy'), env: 'HAPROXY_PATH' },
  { what: 'python3 (STARTTLS client test)', apt: 'python3', present: () => onPath('python3') },
  { what: 'openssl (test certificates)', apt: 'openssl', present: () => onPath('openssl') },
]

const missing = needs.filter((n) => !n.present())
if (missing.length > 0) {
  const packages = missing.map((n) => n.apt).join(' ')
  const command = `apt-get install -y --no-install-recommends ${packages}`
  const root = typeof process.getuid === 'function' && process.getuid() === 0
  if (!root || !onPath('apt-get')) {
    for (const n of missing) console.error(`tests need ${n.what}, which is not installed${n.env ? ` (or set ${n.env})` : ''}`)
    console.error(`Install them, then run pnpm test again:\n  sudo ${command}`)
    process.exit(1)
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  execFileSync('apt-get', ['update', '-qq'], { stdio: ['ignore', 'ignore', 'inherit'], env })
  for (const n of missing) {
    execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', n.apt], { stdio: ['ignore', 'ignore', 'inherit'], env })
    if (!n.present()) {
      console.error(`installed ${n.apt}, but ${n.what} is still not found`)
      process.exit(1)
    }
    console.log(`installed ${n.apt} with apt-get: ${n.what}`)
  }
}

const wanted = playwrightChromiumMajor()
for (const [path, apt, env] of [[chromiumPath(), 'chromium', 'CHROMIUM_PATH'], [headlessShellPath(), 'chromium-headless-shell', 'CHROMIUM_HEADLESS_SHELL_PATH']]) {
  const found = chromiumMajor(path)
  if (!(found >= wanted - CHROMIUM_MAJORS_BEHIND)) {
    console.error(
      `${path} is Chromium ${Number.isNaN(found) ? '(version unreadable)' : found}; playwright-core drives ${wanted - CHROMIUM_MAJORS_BEHIND}–${wanted} and newer. ` +
        `Update it (apt-get install -y ${apt}) or point ${env} at a newer one.`,
    )
    process.exit(1)
  }
}
