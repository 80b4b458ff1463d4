import { cva, type VariantProps } from 'class-variance-authority'
import { cn } from '#app/lib/utils.ts'

// A quiet pill with a dot in its colour: statuses read at a glance without shouting over the data.
const badgeVariants = cva(
  'inline-flex items-center gap-1.5 whitespace-nowrap rounded-md px-1.5 py-0.5 text-xs font-medium ring-1 ring-inset before:size-1.5 before:shrink-0 before:rounded-full before:bg-current before:opacity-80',
  {
    variants: {
      color: {
        grey: 'bg-slate-50 text-slate-700 ring-slate-200 dark:bg-slate-800/60 dark:text-slate-300 dark:ring-slate-700',
        blue: 'bg-blue-50 text-blue-800 ring-blue-200 dark:bg-blue-950/60 dark:text-blue-200 dark:ring-blue-900',
        green: 'bg-emerald-50 text-emerald-800 ring-emerald-200 dark:bg-emerald-950/60 dark:text-emerald-200 dark:ring-emerald-900',
        red: 'bg-red-50 text-red-800 ring-red-200 dark:bg-red-950/60 dark:text-red-200 dark:ring-red-900',
        amber: 'bg-amber-50 text-amber-900 ring-amber-200 dark:bg-amber-950/60 dark:text-amber-200 dark:ring-amber-900',
        teal: 'bg-teal-50 text-teal-800 ring-teal-200 dark:bg-teal-950/60 dark:text-teal-200 dark:ring-teal-900',
        yellow: 'bg-yellow-50 text-yellow-900 ring-yellow-200 dark:bg-yellow-950/60 dark:text-yellow-200 dark:ring-yellow-900',
      },
    },
    defaultVariants: { color: 'grey' },
  },
)

export const Badge = ({ className, color, ...props }: Omit<React.ComponentProps<'span'>, 'color'> & VariantProps<typeof badgeVariants>) => (
  <span className={cn(badgeVariants({ color }), className)} {...props} />
)
