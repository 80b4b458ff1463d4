import { cn } from '#app/lib/utils.ts'

export const Table = ({ className, ...props }: React.ComponentProps<'table'>) => (
  <div className="w-full overflow-x-auto">
    <table className={cn('w-full caption-bottom border-collapse text-sm', className)} {...props} />
  </div>
)
export const TableHeader = (props: React.ComponentProps<'thead'>) => <thead className="border-b border-slate-200 dark:border-slate-800" {...props} />
export const TableBody = (props: React.ComponentProps<'tbody'>) => <tbody {...props} />
export const TableRow = ({ className, ...props }: React.ComponentProps<'tr'>) => (
  <tr className={cn('border-b border-slate-100 hover:bg-slate-50 dark:border-slate-900 dark:hover:bg-slate-900/50', className)} {...props} />
)
export const TableHead = ({ className, ...props }: React.ComponentProps<'th'>) => (
  <th className={cn('h-10 px-2 text-left align-middle font-medium text-slate-600 dark:text-slate-400', className)} {...props} />
)
export const TableCell = ({ className, ...props }: React.ComponentProps<'td'>) => <td className={cn('p-2 align-middle', className)} {...props} />
