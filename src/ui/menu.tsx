import { useEffect, useId, useLayoutEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { useStore } from 'zustand';
import { menusStore, type OpenMenu } from '../state/menus';

export type MenuItem =
  | { kind: 'link'; label: string; href: string; external?: boolean; icon?: ReactNode }
  | { kind: 'button'; label: string; onSelect(): void; icon?: ReactNode }
  | { kind: 'checkbox'; label: string; checked: boolean; onSelect(): void; icon?: ReactNode }
  | { kind: 'radio'; label: string; checked: boolean; onSelect(): void; lang?: string; icon?: ReactNode };

/** More items than this are laid out in two columns. */
const LONG_MENU = 10;

/**
 * A menu button (WAI-ARIA menu-button pattern): the button opens a popup of menu items; the first item
 * gets focus; Arrow keys, Home and End move between items; Escape closes and returns focus to the
 * button; Tab or a click outside closes it. Which menu is open lives in the shared menus store, so
 * opening one closes the other (spec §4).
 */
export function MenuButton({
  menu,
  label,
  className,
  buttonClass,
  buttonContent,
  header,
  items,
}: {
  menu: Exclude<OpenMenu, 'closed'>;
  /** Accessible name of the button. */
  label: string;
  /** Added to the wrapper's class (for layout by its container). */
  className?: string;
  buttonClass: string;
  buttonContent: ReactNode;
  /** Shown at the top of the popup (not an item). */
  header?: ReactNode;
  items: MenuItem[];
}) {
  const open = useStore(menusStore, (state) => state.open === menu);
  const container = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const popup = useRef<HTMLDivElement>(null);
  const id = useId();

  const itemElements = () => [...(list.current?.querySelectorAll<HTMLElement>('[role^="menuitem"]') ?? [])];

  // The popup hangs from its button's end; where that leaves part of it off the screen (a button far from
  // the page's end, a narrow screen), it moves sideways onto it before it is painted.
  useLayoutEffect(() => {
    const element = popup.current;
    if (!open || !element) return;
    element.style.translate = '';
    const margin = 8;
    const { left, right } = element.getBoundingClientRect();
    const end = document.documentElement.clientWidth - margin;
    const shift = left < margin ? margin - left : right > end ? end - right : 0;
    if (shift) element.style.translate = `${shift}px`;
  }, [open]);

  useEffect(() => {
    if (!open) return;
    itemElements()[0]?.focus();
    const onPointer = (event: PointerEvent) => {
      if (container.current && !event.composedPath().includes(container.current))
        menusStore.getState().close();
    };
    document.addEventListener('pointerdown', onPointer, true);
    return () => document.removeEventListener('pointerdown', onPointer, true);
  }, [open]);

  function closeAndReturn() {
    menusStore.getState().close();
    button.current?.focus();
  }

  function onKeyDown(event: KeyboardEvent) {
    const elements = itemElements();
    const index = elements.findIndex((el) => el === (event.target as HTMLElement));
    const focus = (next: number) => elements[(next + elements.length) % elements.length]?.focus();
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        focus(index + 1);
        break;
      case 'ArrowUp':
        event.preventDefault();
        focus(index - 1);
        break;
      case 'Home':
        event.preventDefault();
        focus(0);
        break;
      case 'End':
        event.preventDefault();
        focus(elements.length - 1);
        break;
      case 'Escape':
        event.preventDefault();
        closeAndReturn();
        break;
      case 'Tab':
        menusStore.getState().close();
        break;
    }
  }

  function onButtonKeyDown(event: KeyboardEvent) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!open) menusStore.getState().toggle(menu);
    }
  }

  return (
    <div className={className ? `menu ${className}` : 'menu'} ref={container}>
      <button
        ref={button}
        type="button"
        className={buttonClass}
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => menusStore.getState().toggle(menu)}
        onKeyDown={onButtonKeyDown}
      >
        {buttonContent}
      </button>
      <div
        className={items.length > LONG_MENU ? 'menu-popup long' : 'menu-popup'}
        id={id}
        hidden={!open}
        part="menu"
        ref={popup}
      >
        {header}
        <ul role="menu" aria-label={label} ref={list} onKeyDown={onKeyDown}>
          {items.map((item) => (
            <li role="none" key={item.label}>
              {item.kind === 'link' ? (
                <a
                  role="menuitem"
                  tabIndex={-1}
                  href={item.href}
                  {...(item.external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
                  onClick={() => menusStore.getState().close()}
                >
                  {item.icon}
                  <span>{item.label}</span>
                </a>
              ) : (
                <button
                  type="button"
                  role={
                    item.kind === 'checkbox'
                      ? 'menuitemcheckbox'
                      : item.kind === 'radio'
                        ? 'menuitemradio'
                        : 'menuitem'
                  }
                  aria-checked={item.kind === 'button' ? undefined : item.checked}
                  lang={item.kind === 'radio' ? item.lang : undefined}
                  tabIndex={-1}
                  onClick={() => {
                    if (item.kind !== 'checkbox') closeAndReturn();
                    item.onSelect();
                  }}
                >
                  {item.icon}
                  <span>{item.label}</span>
                </button>
              )}
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
