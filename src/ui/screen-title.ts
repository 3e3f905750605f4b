import { createContext, useContext } from 'react';

/**
 * The id of the heading a shell shows above the current screen, naming it (the manage area's h1). A
 * screen whose main panel that heading already names labels the panel by it instead of repeating the
 * name in a heading of its own; on its own (an element on a host page) there is none, and the panel
 * shows its title.
 */
export const ScreenTitleContext = createContext<string | null>(null);

export function useScreenTitle(): string | null {
  return useContext(ScreenTitleContext);
}
