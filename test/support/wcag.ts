/** The axe-core rules every accessibility check runs: WCAG 2.2 A and AA (design §5). */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];
