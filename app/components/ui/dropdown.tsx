import * as DropdownMenu from '@radix-ui/react-dropdown-menu'
import { cn } from '#app/lib/utils.ts'

export const Dropdown = DropdownMenu.Root
export const DropdownTrigger = DropdownMenu.Trigger

export function DropdownContent({ className, sideOffset = 4, ...props }: React.ComponentProps<typeof DropdownMenu.Content>) {
  return (
    <DropdownMenu.Portal>
      <DropdownMenu.Content
        sideOffset={sideOffset}
        className={cn('z-50 min-w-48 rounded-md border border-slate-200 bg-white p-1 shadow-md dark:border-slate-800 dark:bg-slate-900', className)}
        {...props}
      />
    </DropdownMenu.Portal>
  )
}

export function DropdownItem({ className, ...props }: React.ComponentProps<typeof DropdownMenu.Item>) {
  return (
    <DropdownMenu.Item
      className={cn('flex cursor-default select-none items-center gap-2 rounded px-2 py-1.5 text-sm outline-none data-[highlighted]:bg-slate-100 dark:data-[highlighted]:bg-slate-800', className)}
      {...props}
    />
  )
}

export const DropdownSeparator = ({ className, ...props }: React.ComponentProps<typeof DropdownMenu.Separator>) => (
  <DropdownMenu.Separator className={cn('my-1 h-px bg-slate-200 dark:bg-slate-800', className)} {...props} />
)
