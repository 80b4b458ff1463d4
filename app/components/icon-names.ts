/** The icons of every page's first load (the shell's, the lists'), by lucide's file names: the symbols of public/icons.svg (scripts/icons.ts writes it). */
export const ICON_NAMES = [
  'house',
  'activity',
  'globe',
  'network',
  'shield-check',
  'ban',
  'list-tree',
  'layers',
  'eye',
  'shield-alert',
  'radar',
  'package',
  'receipt',
  'chart-column',
  'building-2',
  'users',
  'contact',
  // The header's and the navigation's own controls.
  'menu',
  'user',
  'sun',
  'moon',
  'log-out',
  'chevron-down',
  // The lists, the page header and the toasts.
  'arrow-down',
  'arrow-up',
  'arrow-up-down',
  'columns-3',
  'download',
  'inbox',
  'search-x',
  'list-filter',
  'x',
  'chevron-right',
  // The lists' search box and the page header's menu of further actions.
  'search',
  'ellipsis',
] as const
export type IconName = (typeof ICON_NAMES)[number]

/** Changed with the sprite's contents, so a browser holding the old file for its hour fetches the new one. */
export const ICONS_VERSION = 2
