import { useEffect, type ReactNode } from 'react'
import { useRevalidator } from 'react-router'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import { cn } from '#app/lib/utils.ts'

/**
 * While a job runs, the page follows it: with JavaScript its data is read again every second
 * (revalidation, no reload); without, a meta refresh reloads the page every two seconds.
 */
export function JobRefresh({ running }: { running: boolean }) {
  const revalidator = useRevalidator()
  useEffect(() => {
    if (!running) return
    const timer = setInterval(() => {
      if (revalidator.state === 'idle') void revalidator.revalidate()
    }, 1000)
    return () => clearInterval(timer)
  }, [running, revalidator])
  return running ? (
    <noscript>
      <meta httpEquiv="refresh" content="2" />
    </noscript>
  ) : null
}

export type JobPanelProps<R> = {
  /** The job's heading (an h2), when the screen has more than the job on it. */
  title?: ReactNode
  state: string
  done: number
  total: number
  /** "3 of 10 done — running": the progress bar's label and the line under it. */
  progressText: string
  /** What shows between the progress and the results (a summary once the job is over). */
  children?: ReactNode
  columns: ReactNode[]
  rows: R[]
  rowKey: (row: R) => string
  cells: (row: R) => ReactNode[]
  /** true, false, or null while the item waits: `data-ok` of the row, red when false. */
  ok: (row: R) => boolean | null
}

/**
 * The one screen part of a bulk job (domain imports, bulk domain actions, record replacements):
 * a real <progress> with its count, then one row per item with its result.
 */
export function JobPanel<R>({ title, state, done, total, progressText, children, columns, rows, rowKey, cells, ok }: JobPanelProps<R>) {
  return (
    <section
      aria-label={title ? undefined : progressText}
      aria-labelledby={title ? 'job-heading' : undefined}
      className="space-y-2 rounded-md border border-slate-200 p-4 dark:border-slate-800"
      data-testid="bulk-job"
      data-state={state}
    >
      {title ? (
        <h2 id="job-heading" className="text-lg font-semibold">
          {title}
        </h2>
      ) : null}
      <progress className="h-3 w-full" value={done} max={Math.max(total, 1)} aria-label={progressText} data-testid="bulk-progress" />
      <p className="text-sm" data-testid="job-state">
        {progressText}
      </p>
      {children}
      <Table>
        <TableHeader>
          <TableRow>
            {columns.map((column, i) => (
              <TableHead key={i}>{column}</TableHead>
            ))}
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.map((row) => {
            const state = ok(row)
            const values = cells(row)
            return (
              <TableRow key={rowKey(row)} data-testid="bulk-result" data-ok={String(state)}>
                {values.map((value, i) => (
                  <TableCell key={i} className={cn(i === values.length - 1 && state === false && 'text-red-700 dark:text-red-400')}>
                    {value}
                  </TableCell>
                ))}
              </TableRow>
            )
          })}
        </TableBody>
      </Table>
    </section>
  )
}
