import { useCallback, useEffect, useRef, type RefObject } from 'react';

/**
 * Focus an element once the next render is committed. A field in a form's disabled fieldset cannot
 * take focus until the render that enables it again, so focusing it as soon as a request fails would
 * leave focus on the page's body.
 */
export function useFocusAfterRender(): (target: RefObject<HTMLElement | null>) => void {
  const pending = useRef<RefObject<HTMLElement | null> | null>(null);
  useEffect(() => {
    const target = pending.current?.current;
    pending.current = null;
    target?.focus();
  });
  return useCallback((target: RefObject<HTMLElement | null>) => {
    pending.current = target;
  }, []);
}
