import { cn } from '#app/lib/utils.ts'

export const Card = ({ className, ...props }: React.ComponentProps<'section'>) => (
  <section className={cn('rounded-lg border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900', className)} {...props} />
)
export const CardTitle = ({ className, ...props }: React.ComponentProps<'h2'>) => <h2 className={cn('mb-2 text-lg font-semibold', className)} {...props} />
