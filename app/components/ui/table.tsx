import { cn } from '#app/lib/utils.ts'

// Rows and cells take their look from the table (`.data-grid` in app.css), so a long list does
// not repeat the same class list on every row and cell; a class given to one of them still wins.
// `scrollClassName` gives the wrapper a height of its own (the list engine's table): rows then scroll
// inside it under the sticky header row (app.css) instead of the heading leaving the screen.
export const Table = ({ className, scrollClassName, ...props }: React.ComponentProps<'table'> & { scrollClassName?: string }) => (
  <div className={cn('w-full overflow-x-auto', scrollClassName)}>
    <table className={`data-grid ${cn('w-full caption-bottom border-collapse text-sm', className)}`} {...props} />
  </div>
)
export const TableHeader = (props: React.ComponentProps<'thead'>) => <thead className="border-b border-slate-200 dark:border-slate-800" {...props} />
export const TableBody = (props: React.ComponentProps<'tbody'>) => <tbody {...props} />
export const TableRow = (props: React.ComponentProps<'tr'>) => <tr {...props} />
export const TableHead = ({ className, ...props }: React.ComponentProps<'th'>) => (
  <th className={cn('h-10 px-2 text-left align-middle font-medium text-slate-600 dark:text-slate-400', className)} {...props} />
)
export const TableCell = (props: React.ComponentProps<'td'>) => <td {...props} />
