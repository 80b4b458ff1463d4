import { useTranslation } from '#app/lib/use-translation.ts'

/** Every text the error screen may say (error-screen.tsx), by key. */
const ERROR_TEXTS = ['error.heading', 'error.accessDenied', 'error.403', 'error.404', 'error.429', 'error.500', 'error.unsafeText', 'error.back', 'error.home'] as const

/**
 * Asks for the error screen's texts where an error boundary renders, before the lazy error screen
 * does: the document inlines the texts its render asked for, and a lazy screen rendered the first
 * time after a start resumes after the document's texts were written (the browser then lacked them:
 * the title read "error.heading" and hydration failed, #418). The screen itself stays out of every
 * page's first load.
 */
export function useErrorTexts() {
  const { t } = useTranslation('common')
  for (const key of ERROR_TEXTS) t(key, { count: 1 })
}
