import { readFileSync } from 'node:fs'

/**
 * CPU seconds a process has used, all its threads together (Linux, from /proc), or 0 when it is
 * gone. The benches report CPU beside wall time: on a shared machine, wall time says as much about
 * the neighbours as about the work.
 */
export function cpuSeconds(pid: number | undefined): number {
  if (pid === undefined) return 0
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return 0
  }
}
