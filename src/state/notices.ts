import { createStore } from 'zustand/vanilla';
import type { Said } from '../i18n/said';

/** Spec §9: a snackbar stays 2500 ms. */
export const SNACKBAR_DURATION_MS = 2500;

export type NoticeMode = 'Success' | 'Failure' | 'Other';
export type NoticeIcon = 'success' | 'failure' | 'neutral';

/**
 * Snackbar data (spec §3): icon, message, mode. The message is what to say, put into words when shown:
 * a notice follows a change of language while it is on screen.
 */
export interface Notice {
  id: number;
  message: Said;
  mode: NoticeMode;
  icon: NoticeIcon;
}

/** Spec §4: the icon follows the mode — success, failure, or neutral for anything else. */
export function iconFor(mode: NoticeMode): NoticeIcon {
  if (mode === 'Success') return 'success';
  if (mode === 'Failure') return 'failure';
  return 'neutral';
}

/** What keeps the notices on screen: the pointer over them, or the focus in them. */
export type NoticeHold = 'hover' | 'focus';

export interface NoticesState {
  queue: Notice[];
  show(message: Said, mode?: NoticeMode): number;
  dismiss(id: number): void;
  /**
   * Stop the notices' clocks while a person reads them (WCAG 2.2.1, timing adjustable): the pointer
   * rests on them or the focus is in them. Each notice keeps the time it had left.
   */
  hold(reason: NoticeHold): void;
  /** Let the clocks run again once nothing holds them. */
  release(reason: NoticeHold): void;
}

let nextId = 1;

/** A notice's clock: the time it has left, and since when it has been running (null: stopped). */
interface NoticeClock {
  left: number;
  since: number | null;
  timer?: ReturnType<typeof setTimeout>;
}

export const noticesStore = createStore<NoticesState>()((set, get) => {
  const clocks = new Map<number, NoticeClock>();
  const holds = new Set<NoticeHold>();
  const run = (id: number, clock: NoticeClock) => {
    clock.since = Date.now();
    clock.timer = setTimeout(() => get().dismiss(id), clock.left);
  };
  return {
    queue: [],
    show(message, mode = 'Other') {
      const id = nextId++;
      set({ queue: [...get().queue, { id, message, mode, icon: iconFor(mode) }] });
      const clock: NoticeClock = { left: SNACKBAR_DURATION_MS, since: null };
      clocks.set(id, clock);
      if (holds.size === 0) run(id, clock);
      return id;
    },
    dismiss(id) {
      clearTimeout(clocks.get(id)?.timer);
      clocks.delete(id);
      set({ queue: get().queue.filter((notice) => notice.id !== id) });
    },
    hold(reason) {
      holds.add(reason);
      for (const clock of clocks.values()) {
        if (clock.since === null) continue;
        clearTimeout(clock.timer);
        clock.left = Math.max(0, clock.left - (Date.now() - clock.since));
        clock.since = null;
      }
    },
    release(reason) {
      holds.delete(reason);
      if (holds.size > 0) return;
      for (const [id, clock] of clocks) if (clock.since === null) run(id, clock);
    },
  };
});
