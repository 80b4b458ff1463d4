import { cn } from '#app/lib/utils.ts'
import { inputClass } from './input.tsx'

/** A native select: it posts with the form and works without JavaScript. */
export function Select({ className, ...props }: React.ComponentProps<'select'>) {
  return <select className={cn(inputClass, 'pr-8', className)} {...props} />
}
