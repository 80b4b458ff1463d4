import { createContext, useContext } from 'react'

/**
 * The Content-Security-Policy nonce of the document being rendered. Only the server render has
 * one: the browser hides nonce attributes from scripts, so the client renders without it.
 */
export const NonceContext = createContext<string | undefined>(undefined)

/** The nonce every inline script of the document must carry (React Router's scripts included). */
export const useNonce = () => useContext(NonceContext)
