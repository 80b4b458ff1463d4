import i18next from 'i18next'
import { startTransition, StrictMode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { I18nextProvider, initReactI18next } from 'react-i18next'
import { HydratedRouter } from 'react-router/dom'
import { DEFAULT_LANGUAGE, i18nOptions, INLINE_I18N_GLOBAL, type InlineI18n } from './lib/i18n.ts'
import { installChunkReload } from './lib/chunk-reload.ts'

installChunkReload()

async function main() {
  // The server chose the language and inlined the texts its render used (root Layout), so
  // hydration renders the same texts without fetching; other languages never reach the browser.
  const inline = (window as unknown as Record<string, InlineI18n | undefined>)[INLINE_I18N_GLOBAL]
  const lng = inline?.lng ?? (document.documentElement.lang || DEFAULT_LANGUAGE)
  const resources = inline?.resources ?? {}
  const ns = [...new Set(Object.values(resources).flatMap((bundles) => Object.keys(bundles)))]
  await i18next.use(initReactI18next).init({ ...i18nOptions, ns: ns.length ? ns : i18nOptions.ns, resources, lng })
  // A document without the inline texts (should not happen): fetch the language before hydrating.
  if (!inline) await (await import('./lib/i18n.client.ts')).loadLanguage(i18next, lng)
  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18next}>
        <StrictMode>
          <HydratedRouter />
        </StrictMode>
      </I18nextProvider>,
    )
  })
}

main().catch((error: unknown) => console.warn(error))
