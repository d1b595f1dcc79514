import { spawn, type ChildProcess } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { createServer } from 'node:net'

/** Asks the OS for a free loopback port. */
export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer()
    srv.once('error', fail)
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number }
      srv.close(() => ok(port))
    })
  })
}

export interface Child {
  child: ChildProcess
  output: () => string
  stop: () => Promise<void>
}

/** Servers a bench started and has not stopped: killed if the bench ends any other way (an error, Ctrl-C, a timeout). */
const running = new Set<ChildProcess>()
let exitHooked = false
function stopAllOnExit(): void {
  if (exitHooked) return
  exitHooked = true
  process.once('exit', () => {
    for (const child of running) child.kill('SIGTERM')
  })
  // Without a handler these signals end the process before 'exit' handlers run.
  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) process.once(signal, () => process.exit(code))
}

/** Spawns a process and waits until its output contains `readyText`; a process that never gets there is stopped. */
export async function spawnUntil(
  command: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string>; readyText: string | RegExp; timeoutMs?: number },
): Promise<Child> {
  const child = spawn(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] })
  stopAllOnExit()
  running.add(child)
  let out = ''
  const exited = new Promise<void>((r) => child.once('exit', () => {
    running.delete(child)
    r()
  }))
  await new Promise<void>((ok, fail) => {
    const timer = setTimeout(() => {
      child.kill('SIGTERM')
      fail(new Error(`${command} did not start:\n${out}`))
    }, options.timeoutMs ?? 60_000)
    const onData = (d: Buffer) => {
      out += d.toString()
      const ready = typeof options.readyText === 'string' ? out.includes(options.readyText) : options.readyText.test(out)
      if (ready) {
        clearTimeout(timer)
        ok()
      }
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    child.once('exit', (code) => {
      clearTimeout(timer)
      fail(new Error(`${command} exited with ${code}:\n${out}`))
    })
  })
  return {
    child,
    output: () => out,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      await exited
    },
  }
}

/** Resident memory of one process in MB (Linux /proc), or NaN once it is gone. */
export function rssMb(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return match ? Number(match[1]) / 1024 : Number.NaN
  } catch {
    return Number.NaN
  }
}

/** CPU time (user + system) a process (or, given its stat file, one of its threads) has used so far, in ms. */
export function cpuMs(pid: number, statFile = `/proc/${pid}/stat`): number {
  try {
    const fields = readFileSync(statFile, 'utf8').split(') ')[1]!.split(' ')
    // utime and stime are fields 14 and 15 of /proc/pid/stat, in clock ticks (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10
  } catch {
    return Number.NaN
  }
}

/** The process and its children (e.g. the api's cluster workers), from /proc. */
export function processTree(pid: number): number[] {
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number)
    return [pid, ...children.flatMap(processTree)]
  } catch {
    return [pid]
  }
}

/** CPU time of a process and all its children, in ms. */
export function treeCpuMs(pid: number): number {
  // A child that exits (a PostgreSQL backend whose pool closed it) leaves the tree; its CPU moves to its parent's
  // cutime/cstime once reaped, so counting those keeps the sum from falling mid-run.
  return processTree(pid).reduce((sum, p) => sum + (cpuMs(p) || 0) + (reapedChildrenCpuMs(p) || 0), 0)
}

/** CPU time (user + system) of a process's exited and reaped children, in ms (cutime and cstime, Linux /proc). */
function reapedChildrenCpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
    return (Number(fields[13]) + Number(fields[14])) * 10
  } catch {
    return Number.NaN
  }
}

/** Resident memory of a process and all its children, in MB. */
export function treeRssMb(pid: number): number {
  return processTree(pid).reduce((sum, p) => sum + (rssMb(p) || 0), 0)
}

/** CPU time (user + system) of each thread of a process so far, in ms, by thread id (Linux /proc). */
export function threadCpuMs(pid: number): Map<number, number> {
  const byThread = new Map<number, number>()
  let tids: string[]
  try {
    tids = readdirSync(`/proc/${pid}/task`)
  } catch {
    return byThread
  }
  for (const tid of tids) {
    const ms = cpuMs(Number(tid), `/proc/${pid}/task/${tid}/stat`)
    if (!Number.isNaN(ms)) byThread.set(Number(tid), ms)
  }
  return byThread
}

/**
 * CPU time all threads of a process have used so far, in ms with nanosecond resolution (Linux schedstat), where
 * /proc/pid/stat counts 10 ms ticks: fine enough to time one request.
 */
export function preciseCpuMs(pid: number): number {
  let ns = 0
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0])
    } catch {
      // a thread that ended meanwhile
    }
  }
  return ns / 1e6
}
