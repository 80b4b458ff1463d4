import { ICONS_VERSION, type IconName } from './icon-names.ts'

/**
 * An icon of lucide's drawn from one cached sprite (public/icons.svg) in the text's colour: the
 * icons of every page's first load cost no JavaScript (the /domains first load is held to 150 KB);
 * icons of screens further in may still import lucide-react's components.
 */
export function Icon({ name, className }: { name: IconName; className?: string }) {
  return (
    // Lucide's drawing attributes on the icon itself: a symbol drawn by <use> inherits them from here, not from the sprite.
    <svg className={className} aria-hidden focusable="false" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round">
      <use href={`/icons.svg?v=${ICONS_VERSION}#${name}`} />
    </svg>
  )
}
