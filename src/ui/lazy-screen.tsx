import { lazy, type ComponentType } from 'react';

/** A lazily loaded component that can be asked for ahead of its first render. */
export type LazyScreen<P> = ComponentType<P> & {
  /** Load the chunk (once; a failed load may be tried again). */
  preload(): Promise<ComponentType<P>>;
};

/**
 * Like React's `lazy` (same argument), but once the chunk is in, the component renders directly, without suspending.
 * React holds back the content of a Suspense boundary whose fallback was shown less than 300 ms ago;
 * `lazy` suspends on its first render even when its chunk has already arrived, so every lazily loaded
 * layer of a screen would cost up to 300 ms. An element preloads its screen's chunks before its first
 * render (see `elementClass`), and nothing falls back. See docs/decisions/preload-lazy-screens.md.
 */
export function lazyScreen<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
): LazyScreen<P> {
  let loaded: ComponentType<P> | undefined;
  let pending: Promise<ComponentType<P>> | undefined;
  const preload = () => {
    pending ??= load().then(
      (module) => (loaded = module.default),
      (error: unknown) => {
        pending = undefined;
        throw error;
      },
    );
    return pending;
  };
  const Lazy = lazy(() => preload().then((component) => ({ default: component })));
  function Screen(props: P) {
    const Loaded = loaded;
    return Loaded ? <Loaded {...props} /> : <Lazy {...props} />;
  }
  return Object.assign(Screen, { preload });
}
