/** Colour names of spec §9 offered as permission highlights (browser and server). */
export const HIGHLIGHT_COLORS = ['blue', 'red', 'green', 'teal', 'yellow', 'amber', 'grey'] as const
