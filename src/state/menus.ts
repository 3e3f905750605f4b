import { createStore } from 'zustand/vanilla';

/** Spec §4: closed, account open or switcher open — never both (nor the language menu, beyond the spec). */
export type OpenMenu = 'closed' | 'account' | 'switcher' | 'language';

export interface MenusState {
  open: OpenMenu;
  /** Open one menu (closing the other), or close it when it is already open. */
  toggle(menu: Exclude<OpenMenu, 'closed'>): void;
  close(): void;
}

export const menusStore = createStore<MenusState>()((set, get) => ({
  open: 'closed',
  toggle(menu) {
    set({ open: get().open === menu ? 'closed' : menu });
  },
  close() {
    set({ open: 'closed' });
  },
}));
