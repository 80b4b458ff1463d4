import { startTransition, StrictMode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { HydratedRouter } from 'react-router/dom'
import { installChunkReload } from './lib/chunk-reload.ts'
import { browserTranslator } from './lib/browser-translator.ts'
import { INLINE_I18N_GLOBAL } from './lib/i18n.ts'
import { TranslatorContext } from './lib/use-translation.ts'

installChunkReload()

async function main() {
  // The server chose the language and inlined the texts its render used (root Layout), so
  // hydration renders the same texts without fetching; other languages never reach the browser.
  const translator = browserTranslator()
  // A document without the inline texts (should not happen): fetch the language before hydrating.
  if (!(INLINE_I18N_GLOBAL in window)) await (await import('./lib/i18n.client.ts')).loadLanguage(translator, translator.language)
  startTransition(() => {
    hydrateRoot(
      document,
      <TranslatorContext.Provider value={translator}>
        <StrictMode>
          <HydratedRouter />
        </StrictMode>
      </TranslatorContext.Provider>,
    )
  })
}

main().catch((error: unknown) => console.warn(error))
