export type Theme = 'light' | 'dark'
export const isTheme = (value: unknown): value is Theme => value === 'light' || value === 'dark'

/**
 * Runs before first paint when no theme cookie exists: follows the system preference. With a
 * cookie the server already put the class on <html>, so this script is not sent at all.
 */
export const SYSTEM_THEME_SCRIPT = `(function(){try{var d=window.matchMedia('(prefers-color-scheme: dark)').matches;var e=document.documentElement;e.classList.toggle('dark',d);e.dataset.theme=d?'dark':'light';e.style.colorScheme=d?'dark':'light'}catch(_){}})()`
