import { closeSync, existsSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs'

/** Whether a process with this id runs (one of another user answers EPERM: it runs too). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Makes something several processes may ask for at once, once: runs `work` holding the lock file
 * `lock` (made exclusively, holding the holder's process id); while another process holds it,
 * waits until `ready()` says the other's work is done, or takes the lock over once its holder has
 * died. Answers whether this process did the work. Used for the run's templates, which the test
 * files and the e2e launcher ask for side by side.
 */
export async function onceUnderLock(lock: string, ready: () => boolean, work: () => Promise<void>, waitMs = 600_000): Promise<boolean> {
  const deadline = Date.now() + waitMs
  for (;;) {
    let fd: number | undefined
    try {
      fd = openSync(lock, 'wx')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    if (fd !== undefined) {
      try {
        writeSync(fd, String(process.pid))
        closeSync(fd)
        if (ready()) return false
        await work()
        return true
      } finally {
        rmSync(lock, { force: true })
      }
    }
    if (ready()) return false
    const holder = Number(existsSync(lock) ? readFileSync(lock, 'utf8') || 0 : 0)
    // A holder that died leaves the lock to the next (one that has not written its id yet is waited for).
    if (holder > 0 && !alive(holder)) rmSync(lock, { force: true })
    if (Date.now() > deadline) throw new Error(`the lock ${lock} was held by process ${holder} for more than ${waitMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}
