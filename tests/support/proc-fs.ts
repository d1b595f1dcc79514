import { readdirSync, readFileSync, readlinkSync } from 'node:fs'

/** One process as Linux's /proc shows it. */
export interface ProcessInfo {
  pid: number
  ppid: number
  /** `R`, `S`, … ; `Z` is a zombie: exited, not yet reaped by its parent. */
  state: string
  cmdline: string
}

/** Reads /proc/<pid>; null once the process is gone (exited and reaped). */
export function readProcess(pid: number): ProcessInfo | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // "pid (comm) state ppid …": comm may itself hold spaces and parentheses.
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim()
    return { pid, ppid: Number(ppid), state: state!, cmdline }
  } catch {
    return null
  }
}

/** The processes whose parent is `pid` and which have not exited (Linux /proc). */
export function childProcesses(pid: number): ProcessInfo[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => readProcess(Number(name)))
    .filter((p): p is ProcessInfo => p !== null && p.ppid === pid && p.state !== 'Z')
}

/** Whether `pid` is still running; a zombie (dead, not yet reaped) counts as gone. */
export function isRunning(pid: number): boolean {
  const p = readProcess(pid)
  return p !== null && p.state !== 'Z'
}

/**
 * Which of `pids` holds the server end of the loopback TCP connection from `clientPort` to `serverPort`: the inode
 * of that end, from /proc/net/tcp, among the sockets in each process's /proc/<pid>/fd. Undefined when none does (yet).
 */
export function connectionOwner(serverPort: number, clientPort: number, pids: number[]): number | undefined {
  const hexPort = (port: number) => port.toString(16).toUpperCase().padStart(4, '0')
  const inode = readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .find(([, local, remote]) => local?.endsWith(`:${hexPort(serverPort)}`) && remote?.endsWith(`:${hexPort(clientPort)}`))?.[9]
  if (!inode || inode === '0') return undefined
  return pids.find((pid) => {
    try {
      return readdirSync(`/proc/${pid}/fd`).some((fd) => {
        try {
          return readlinkSync(`/proc/${pid}/fd/${fd}`) === `socket:[${inode}]`
        } catch {
          return false // closed while we looked
        }
      })
    } catch {
      return false // the process is gone
    }
  })
}
