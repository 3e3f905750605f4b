import { createStore } from 'zustand/vanilla';

/** Spec §9: a snackbar stays 2500 ms. */
export const SNACKBAR_DURATION_MS = 2500;

export type NoticeMode = 'Success' | 'Failure' | 'Other';
export type NoticeIcon = 'success' | 'failure' | 'neutral';

/** Snackbar data (spec §3): icon, message, mode. `message` is already translated. */
export interface Notice {
  id: number;
  message: string;
  mode: NoticeMode;
  icon: NoticeIcon;
}

/** Spec §4: the icon follows the mode — success, failure, or neutral for anything else. */
export function iconFor(mode: NoticeMode): NoticeIcon {
  if (mode === 'Success') return 'success';
  if (mode === 'Failure') return 'failure';
  return 'neutral';
}

export interface NoticesState {
  queue: Notice[];
  show(message: string, mode?: NoticeMode): number;
  dismiss(id: number): void;
}

let nextId = 1;

export const noticesStore = createStore<NoticesState>()((set, get) => ({
  queue: [],
  show(message, mode = 'Other') {
    const id = nextId++;
    set({ queue: [...get().queue, { id, message, mode, icon: iconFor(mode) }] });
    setTimeout(() => get().dismiss(id), SNACKBAR_DURATION_MS);
    return id;
  },
  dismiss(id) {
    set({ queue: get().queue.filter((notice) => notice.id !== id) });
  },
}));
