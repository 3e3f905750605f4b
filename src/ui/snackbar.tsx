import { useStore } from 'zustand';
import { useSay } from '../i18n/said';
import { noticesStore, type NoticeIcon } from '../state/notices';

function Icon({ kind }: { kind: NoticeIcon }) {
  const paths: Record<NoticeIcon, string> = {
    success: 'M9 16.2 4.8 12l-1.4 1.4L9 19 21 7l-1.4-1.4z',
    failure: 'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm1 15h-2v-2h2zm0-4h-2V7h2z',
    neutral: 'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm1 15h-2v-6h2zm0-8h-2V7h2z',
  };
  return (
    <svg
      className={`snackbar-icon snackbar-${kind}`}
      viewBox="0 0 24 24"
      width="20"
      height="20"
      aria-hidden="true"
    >
      <path d={paths[kind]} fill="currentColor" />
    </svg>
  );
}

/**
 * The snackbar (spec §3/§4/§9): the notices of the page, each for 2500 ms, with an icon by mode, in a
 * polite live region so screen readers announce them. A person who needs longer keeps them on screen
 * by resting the pointer on them or tabbing to them (WCAG 2.2.1): their clocks stop meanwhile.
 */
export function Snackbar() {
  const queue = useStore(noticesStore, (state) => state.queue);
  const { hold, release } = noticesStore.getState();
  const say = useSay();
  return (
    <div
      className="snackbar-region"
      role="status"
      aria-live="polite"
      onPointerEnter={() => hold('hover')}
      onPointerLeave={() => release('hover')}
      onFocus={() => hold('focus')}
      onBlur={() => release('focus')}
    >
      {queue.map((notice) => (
        <div
          key={notice.id}
          className={`snackbar snackbar-mode-${notice.icon}`}
          part="snackbar"
          // Focusable, so that a keyboard can reach a notice and hold it.
          tabIndex={0}
        >
          <Icon kind={notice.icon} />
          <span>{say(notice.message)}</span>
        </div>
      ))}
    </div>
  );
}
