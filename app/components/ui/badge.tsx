import { cva, type VariantProps } from 'class-variance-authority'
import { cn } from '#app/lib/utils.ts'

const badgeVariants = cva('inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium', {
  variants: {
    color: {
      grey: 'bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-200',
      blue: 'bg-blue-100 text-blue-800 dark:bg-blue-950 dark:text-blue-200',
      green: 'bg-green-100 text-green-800 dark:bg-green-950 dark:text-green-200',
      red: 'bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200',
      amber: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
      teal: 'bg-teal-100 text-teal-800 dark:bg-teal-950 dark:text-teal-200',
      yellow: 'bg-yellow-100 text-yellow-900 dark:bg-yellow-950 dark:text-yellow-200',
    },
  },
  defaultVariants: { color: 'grey' },
})

export const Badge = ({ className, color, ...props }: Omit<React.ComponentProps<'span'>, 'color'> & VariantProps<typeof badgeVariants>) => (
  <span className={cn(badgeVariants({ color }), className)} {...props} />
)
