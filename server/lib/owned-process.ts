import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process'
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'

/**
 * The helper processes the server runs beside itself (a local pdns_server, a local Pebble) must end
 * with it, even when it is killed with SIGKILL and runs no clean-up of its own; and a start must
 * clear what a server killed that way left behind, or the helper it starts again finds its control
 * socket in use and refuses to start. Two mechanisms, both cheap:
 *
 * - on Linux the helper is started through util-linux's `setpriv --pdeathsig KILL`, which asks the
 *   kernel (PR_SET_PDEATHSIG, which Node cannot set itself) to SIGKILL it when we die, then execs
 *   the helper in the same process;
 * - its pid and ours go to a pid file in its folder under DATA_DIR; a start that finds one whose
 *   server is gone kills the helper still recorded there (after checking /proc/<pid>/cmdline is that
 *   helper) before starting a new one. A helper whose server still runs is another server's: the
 *   start refuses rather than take it away.
 */

export type OwnedProcessOptions = SpawnOptions & {
  /** Where the pid file goes (the helper's folder under DATA_DIR); none for a helper in a temp folder. */
  pidFile?: string
  /** Text the helper's command line contains (its config folder): what makes a recorded pid this helper and not a reused one. */
  identity: string
}

type PidRecord = { pid: number; parent: number; command: string; identity: string }

let pdeathsig: boolean | undefined
/** Whether `setpriv --pdeathsig` is available (Linux with util-linux ≥ 2.33). */
export function parentDeathSignalAvailable(): boolean {
  if (pdeathsig === undefined) {
    pdeathsig = process.platform === 'linux' && (spawnSync('setpriv', ['--help'], { encoding: 'utf8' }).stdout ?? '').includes('--pdeathsig')
  }
  return pdeathsig
}

/**
 * Starts `command` as a helper owned by this process: killed by the kernel when we die (where
 * setpriv is available), recorded in `pidFile` (removed when it exits), and SIGTERMed when we exit
 * without stopping it. Call `clearStaleProcess(pidFile, …)` before, while nothing else runs there.
 */
export function spawnOwned(command: string, args: string[], options: OwnedProcessOptions): ChildProcess {
  const { pidFile, identity, ...spawnOptions } = options
  const child = parentDeathSignalAvailable() ? spawn('setpriv', ['--pdeathsig', 'KILL', '--', command, ...args], spawnOptions) : spawn(command, args, spawnOptions)
  if (pidFile && child.pid !== undefined) {
    const record: PidRecord = { pid: child.pid, parent: process.pid, command: path.basename(command), identity }
    writeFileSync(pidFile, `${JSON.stringify(record)}\n`)
    child.once('exit', () => {
      // Only our own record: a later start may have written its own meanwhile.
      if (readRecord(pidFile)?.pid === child.pid) rmSync(pidFile, { force: true })
    })
  }
  // A process that exits without stopping it (a fatal error, process.exit) takes it along.
  const orphaned = () => child.kill('SIGTERM')
  process.once('exit', orphaned)
  child.once('exit', () => process.off('exit', orphaned))
  return child
}

export class ProcessInUseError extends Error {}

/**
 * Clears what a dead server left in a helper's folder: the helper recorded in `pidFile`, when it
 * still runs and its server does not, is killed (SIGKILL, waited for), and the pid file and the
 * `leftovers` (a stale control socket) are removed. Throws ProcessInUseError when the recorded
 * helper's server is alive: two servers on one DATA_DIR.
 */
export async function clearStaleProcess(pidFile: string, leftovers: string[] = []): Promise<{ killed?: number }> {
  const record = readRecord(pidFile)
  let killed: number | undefined
  if (record && isHelper(record)) {
    const owner = parentOf(record.pid)
    if (owner === record.parent && owner !== process.pid && alive(owner)) {
      throw new ProcessInUseError(`${record.command} (pid ${record.pid}) in ${path.dirname(pidFile)} belongs to a server that still runs (pid ${owner}): another server uses this DATA_DIR`)
    }
    process.kill(record.pid, 'SIGKILL')
    killed = record.pid
    for (const deadline = Date.now() + 10_000; alive(record.pid);) {
      if (Date.now() > deadline) throw new Error(`${record.command} (pid ${record.pid}) left by a stopped server did not end after SIGKILL`)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }
  rmSync(pidFile, { force: true })
  for (const file of leftovers) rmSync(file, { force: true })
  return killed ? { killed } : {}
}

function readRecord(pidFile: string): PidRecord | undefined {
  if (!existsSync(pidFile)) return undefined
  try {
    const record = JSON.parse(readFileSync(pidFile, 'utf8')) as Partial<PidRecord>
    if (Number.isInteger(record.pid) && Number(record.pid) > 0 && typeof record.command === 'string' && typeof record.identity === 'string') return record as PidRecord
  } catch {
    // unreadable: nothing to kill, the file is removed
  }
  return undefined
}

/** The recorded process still runs that helper (its pid not reused by something else): its command line says so. */
function isHelper(record: PidRecord): boolean {
  let argv: string[]
  try {
    argv = readFileSync(`/proc/${record.pid}/cmdline`, 'utf8').split('\0').filter(Boolean)
  } catch {
    return false
  }
  return argv.length > 0 && path.basename(argv[0]!) === record.command && argv.some((arg) => arg.includes(record.identity))
}

/** Running (a zombie waiting for its parent to reap it has ended: it holds no files, sockets or ports). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return false
  }
}

function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
  } catch {
    return undefined
  }
}
