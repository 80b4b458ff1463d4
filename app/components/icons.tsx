/**
 * The custom icons of spec §3, drawn for this portal (24×24, currentColor, stroke 2 to sit beside lucide).
 */
type IconProps = React.SVGProps<SVGSVGElement> & { title?: string }

function Svg({ title, children, ...props }: IconProps & { children: React.ReactNode }) {
  return (
    <svg
      viewBox="0 0 24 24"
      width="24"
      height="24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      role={title ? 'img' : undefined}
      aria-hidden={title ? undefined : true}
      {...props}
    >
      {title ? <title>{title}</title> : null}
      {children}
    </svg>
  )
}

/** A shield with a key: signed zones. */
export const DnssecIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M12 3 4 6v6c0 4.5 3.4 8.2 8 9 4.6-.8 8-4.5 8-9V6z" />
    <circle cx="10.5" cy="11" r="2" />
    <path d="M12.5 11H16m-1.5 0v2" />
  </Svg>
)
/** Domain lock (registry lock): a padlock over a globe line. */
export const DllIcon = (p: IconProps) => (
  <Svg {...p}>
    <rect x="5" y="11" width="14" height="10" rx="2" />
    <path d="M8 11V8a4 4 0 0 1 8 0v3" />
    <path d="M5 16h14M12 11v10" />
  </Svg>
)
export const BulkTrayEmptyIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M3 13h5l1.5 3h5L16 13h5" />
    <path d="M5 13 7 5h10l2 8v6H5z" />
  </Svg>
)
export const BulkTrayFullIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M3 13h5l1.5 3h5L16 13h5" />
    <path d="M5 13 7 5h10l2 8v6H5z" />
    <path d="M8.5 8h7M8 10.5h8" />
  </Svg>
)
export const LanguageIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M4 5h8M8 3v2m2.5 0c-1 4-3.5 7-6.5 8.5M6 9c1 2 3 3.5 5 4.5" />
    <path d="m12 21 4.5-10L21 21m-7.5-3h6" />
  </Svg>
)
export const SslIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M7 4h10v9l-5 3-5-3z" />
    <path d="m9.5 9 2 2 3.5-3.5" />
    <path d="m9 16-1 5 4-2 4 2-1-5" />
  </Svg>
)
/** xn-- with an arrow: the punycode form of a name. */
export const PunycodeIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M3 8l3 4-3 4M8 8l3 8m0-8-3 8" />
    <path d="M14 12h7m-3-3 3 3-3 3" />
  </Svg>
)
export const TranslationIcon = (p: IconProps) => (
  <Svg {...p}>
    <rect x="3" y="4" width="10" height="10" rx="2" />
    <path d="M6 7h4M8 7v4" />
    <path d="M11 14v4a2 2 0 0 0 2 2h6a2 2 0 0 0 2-2v-6a2 2 0 0 0-2-2h-4" />
    <path d="m14 18 2-5 2 5m-3.3-1.5h2.6" />
  </Svg>
)
/** A document with a delta: a material change of registrant data. */
export const MaterialChangeIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M6 3h9l4 4v14H6z" />
    <path d="M15 3v4h4" />
    <path d="m12.5 10 3 6h-6z" />
  </Svg>
)
/** The brand mark: a stylised registrar "R" in a rounded square. */
export const BrandIcon = (p: IconProps) => (
  <Svg {...p}>
    <rect x="3" y="3" width="18" height="18" rx="5" />
    <path d="M9 17V7h4a3 3 0 0 1 0 6H9m4 0 3 4" />
  </Svg>
)
