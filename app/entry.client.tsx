import i18next from 'i18next'
import { startTransition, StrictMode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { I18nextProvider, initReactI18next } from 'react-i18next'
import { HydratedRouter } from 'react-router/dom'
import { DEFAULT_LANGUAGE, i18nOptions } from './lib/i18n.ts'
import { installChunkReload } from './lib/chunk-reload.ts'

installChunkReload()

async function main() {
  // The server chose the language; <html lang> carries it, so hydration renders the same texts.
  await i18next.use(initReactI18next).init({ ...i18nOptions, lng: document.documentElement.lang || DEFAULT_LANGUAGE })
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
