import { useEffect, useSyncExternalStore } from 'react'
import { useTranslation } from '#app/lib/use-translation.ts'
import { Link } from 'react-router'
import { Icon } from './icon.tsx'
import { SNACKBAR_DEFAULT_TIMEOUT, type Snackbar } from '#app/lib/snackbar.ts'
import { useHydrated } from '#app/lib/use-hydrated.ts'
import { cn } from '#app/lib/utils.ts'

type Shown = Snackbar & { key: number }
let nextKey = 1
let queue: Shown[] = []
const listeners = new Set<() => void>()
const emit = () => listeners.forEach((l) => l())

/** Shows a snackbar from the browser (a failed clipboard copy, a finished background call). */
export function showSnackbar(message: Partial<Snackbar> & { content: string }) {
  queue = [...queue, { color: 'info', timeout: SNACKBAR_DEFAULT_TIMEOUT, ...message, key: nextKey++ }]
  emit()
}
const dismiss = (key: number) => {
  queue = queue.filter((m) => m.key !== key)
  emit()
}
const subscribe = (l: () => void) => {
  listeners.add(l)
  return () => listeners.delete(l)
}
const EMPTY: Shown[] = []

/** Copies text; a refusal by the browser gives the error-coloured message of spec §8. */
export async function copyToClipboard(text: string, messages: { copied: string; failed: string }) {
  try {
    await navigator.clipboard.writeText(text)
    showSnackbar({ content: messages.copied, color: 'success' })
  } catch {
    showSnackbar({ content: messages.failed, color: 'error' })
  }
}

const COLORS: Record<Snackbar['color'], string> = {
  success: 'bg-green-700 text-white',
  error: 'bg-red-700 text-white',
  info: 'bg-slate-800 text-white dark:bg-slate-200 dark:text-slate-900',
  warning: 'bg-amber-500 text-slate-950',
}

/**
 * Flash messages arrive in the root loader data (so they show without JavaScript, server-rendered);
 * with JavaScript they time out after their timeout (default 5000 ms).
 */
export function Toaster({ initial }: { initial: Snackbar[] }) {
  const { t } = useTranslation('common')
  const live = useSyncExternalStore(
    subscribe,
    () => queue,
    () => EMPTY,
  )
  const hydrated = useHydrated()
  useEffect(() => {
    if (!hydrated) return
    for (const message of initial) showSnackbar(message)
  }, [initial, hydrated])
  const shown: Shown[] = hydrated ? live : initial.map((m, i) => ({ ...m, key: -1 - i }))
  return (
    <div aria-live="polite" className="pointer-events-none fixed bottom-4 left-1/2 z-50 flex w-full max-w-md -translate-x-1/2 flex-col gap-2 px-4">
      {shown.map((message) => (
        <SnackbarItem key={message.key} message={message} closeLabel={t('actions.close')} />
      ))}
    </div>
  )
}

function SnackbarItem({ message, closeLabel }: { message: Shown; closeLabel: string }) {
  useEffect(() => {
    if (message.key < 0 || message.loading || message.timeout === 0) return
    const timer = setTimeout(() => dismiss(message.key), message.timeout)
    return () => clearTimeout(timer)
  }, [message.key, message.timeout, message.loading])
  return (
    <div role={message.color === 'error' ? 'alert' : 'status'} data-color={message.color} data-testid="snackbar" className={cn('pointer-events-auto rounded-md p-3 shadow-lg', COLORS[message.color])}>
      <div className="flex items-start gap-2">
        <div className="flex-1">
          <p className="font-medium">{message.content}</p>
          {message.subtitle ? <p className="text-sm opacity-90">{message.subtitle}</p> : null}
          {message.deepLink ? (
            <Link className="text-sm underline" to={message.deepLink}>
              {message.deepLinkText ?? message.deepLink}
            </Link>
          ) : null}
        </div>
        {message.key >= 0 ? (
          <button type="button" aria-label={closeLabel} onClick={() => dismiss(message.key)}>
            <Icon name="x" className="size-4" />
          </button>
        ) : null}
      </div>
      {message.loading || message.progress !== undefined ? (
        <div className="mt-2 h-1 w-full overflow-hidden rounded bg-white/30">
          <div className={cn('h-full bg-white', message.progress === undefined && 'w-1/3 animate-pulse')} style={message.progress !== undefined ? { width: `${message.progress}%` } : undefined} />
        </div>
      ) : null}
    </div>
  )
}
