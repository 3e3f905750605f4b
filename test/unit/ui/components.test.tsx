import { expect } from 'chai';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { BRAND_IDS, BRANDS } from '../../../src/brands';
import { asIs } from '../../../src/i18n/said';
import { noticesStore } from '../../../src/state/notices';
import { Dialog } from '../../../src/ui/dialog';
import { Snackbar } from '../../../src/ui/snackbar';
import '../../../src/styles/screens-sheet';
import { elementCss } from '../../../src/styles/sheet';
import { TextField, UNSUPPORTED_TYPES } from '../../../src/ui/text-field';
import { expectNoAxeViolations, renderWithElement } from '../render';

function Harness({ closable, onClosed }: { closable: boolean; onClosed(): void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        open
      </button>
      <Dialog
        open={open}
        title="Title"
        closable={closable}
        onClose={() => {
          setOpen(false);
          onClosed();
        }}
      >
        <input aria-label="inside" />
      </Dialog>
    </>
  );
}

const escape = (target: Element) => {
  // What the browser does on Escape in a modal dialog: a cancelable `cancel` event.
  const event = new Event('cancel', { cancelable: true });
  fireEvent(target, event);
  return event;
};

/** Open the harness's dialog with its button; returns the opener and the open dialog. */
function openDialog(name = 'Title') {
  const opener = screen.getByRole('button', { name: 'open' });
  opener.focus();
  fireEvent.click(opener);
  return { opener, dialog: screen.getByRole('dialog', { name }) as HTMLDialogElement };
}

/** The next `close` event of a dialog, once its listeners added before this one have run. */
const nextClose = (dialog: HTMLDialogElement) =>
  new Promise<void>((resolve) => dialog.addEventListener('close', () => resolve(), { once: true }));

/** The dialog's content, found whether or not the dialog is shown. */
const inside = () => screen.queryByLabelText('inside');

describe('ui/dialog', () => {
  it('opens modally, closes on Escape, and gives focus back to its opener', async () => {
    let closed = 0;
    render(<Harness closable onClosed={() => closed++} />);
    const { opener, dialog } = openDialog();
    expect(dialog.open).to.equal(true);
    expect(dialog.matches(':modal'), 'modal').to.equal(true);
    expect(dialog.getAttribute('aria-labelledby')).to.equal(
      within(dialog).getByRole('heading', { name: 'Title' }).id,
    );
    const event = escape(dialog);
    expect(event.defaultPrevented, 'the browser does not close it behind React').to.equal(true);
    expect(closed).to.equal(1);
    await waitFor(() => expect(dialog.open).to.equal(false));
    expect(document.activeElement).to.equal(opener);
  });

  it('stays open on Escape while closing is disabled', async () => {
    let closed = 0;
    const { rerender } = render(<Harness closable={false} onClosed={() => closed++} />);
    const { dialog } = openDialog();
    const event = escape(dialog);
    expect(event.defaultPrevented, 'the browser does not close it').to.equal(true);
    expect(closed).to.equal(0);
    expect(dialog.open).to.equal(true);
    expect(dialog.classList.contains('closing'), 'no exit animation').to.equal(false);
    // A close begun by that Escape would end before one begun after it: once closing is allowed and a
    // second Escape's close is over, the first must have closed nothing.
    rerender(<Harness closable onClosed={() => closed++} />);
    escape(dialog);
    await waitFor(() => expect(dialog.open).to.equal(false));
    expect(closed, 'only the second Escape closed it').to.equal(1);
  });

  it('opens again when the browser closes it while closing is disabled (a second Escape, a script)', async () => {
    let closed = 0;
    render(<Harness closable={false} onClosed={() => closed++} />);
    const { dialog } = openDialog();
    // What Chrome does on a second Escape with no user activation in between: close, without a
    // cancelable cancel. The `close` event follows in a task; React's listener, added first, runs
    // before this one.
    const closeEvent = nextClose(dialog);
    dialog.close();
    expect(dialog.open).to.equal(false);
    await closeEvent;
    expect(dialog.open).to.equal(true);
    expect(dialog.matches(':modal'), 'modal again').to.equal(true);
    expect(closed).to.equal(0);
    expect(inside()).to.not.equal(null);
  });

  it('tells its owner when the browser closes it while closing is allowed', async () => {
    let closed = 0;
    render(<Harness closable onClosed={() => closed++} />);
    const { dialog } = openDialog();
    const closeEvent = nextClose(dialog);
    dialog.close();
    await closeEvent;
    expect(closed).to.equal(1);
    expect(dialog.open).to.equal(false);
    await waitFor(() => expect(inside(), 'the content follows the state').to.equal(null));
    // And it opens again normally.
    fireEvent.click(screen.getByRole('button', { name: 'open' }));
    expect(dialog.open).to.equal(true);
  });

  it('keeps its content while the exit animation plays', async () => {
    render(<Harness closable onClosed={() => undefined} />);
    const { dialog } = openDialog();
    escape(dialog);
    expect(dialog.classList.contains('closing')).to.equal(true);
    expect(dialog.open).to.equal(true);
    expect(inside(), 'content during the animation').to.not.equal(null);
    await waitFor(() => expect(dialog.open).to.equal(false));
    await waitFor(() => expect(inside(), 'gone once closed').to.equal(null));
    expect(dialog.classList.contains('closing')).to.equal(false);
  });

  it('gives focus to returnFocus() when its opener is gone, and is an alertdialog when it asks', async () => {
    function Asking() {
      const [open, setOpen] = useState(false);
      const [done, setDone] = useState(false);
      return (
        <>
          {done ? (
            <button key="instead" type="button">
              instead
            </button>
          ) : (
            <button key="open" type="button" onClick={() => setOpen(true)}>
              open
            </button>
          )}
          <p id="question">Sure?</p>
          <Dialog
            open={open}
            title="Title"
            describedBy="question"
            returnFocus={() => screen.queryByRole('button', { name: 'instead' })}
            onClose={() => setOpen(false)}
          >
            <button
              type="button"
              onClick={() => {
                setDone(true);
                setOpen(false);
              }}
            >
              yes
            </button>
          </Dialog>
        </>
      );
    }
    render(<Asking />);
    const opener = screen.getByRole('button', { name: 'open' });
    opener.focus();
    fireEvent.click(opener);
    const dialog = screen.getByRole('alertdialog', {
      name: 'Title',
      description: 'Sure?',
    }) as HTMLDialogElement;
    expect(dialog.getAttribute('aria-describedby')).to.equal('question');
    fireEvent.click(within(dialog).getByRole('button', { name: 'yes' }));
    await waitFor(() => expect(dialog.open).to.equal(false));
    expect(opener.isConnected, 'the opener went away').to.equal(false);
    expect(document.activeElement?.textContent).to.equal('instead');
  });

  it('is at most 80vw wide and animates 150 ms in, 75 ms out (none with reduced motion)', () => {
    const css = elementCss().replace(/\s+/g, '');
    expect(css).to.match(/\.dialog\{[^}]*max-width:80vw/);
    expect(css).to.match(/\.dialog\[open\]\{animation:dialog-in150ms/);
    expect(css).to.match(/\.dialog\.closing\{animation:dialog-out75ms/);
    expect(css).to.match(/@media\(prefers-reduced-motion:reduce\)\{[^@]*animation-duration:0\.01ms/);
  });
});

describe('ui/snackbar', () => {
  afterEach(() => noticesStore.setState({ queue: [] }));

  it('shows each notice with the icon of its mode in a polite live region', async () => {
    render(<Snackbar />);
    noticesStore.getState().show(asIs('saved'), 'Success');
    noticesStore.getState().show(asIs('broken'), 'Failure');
    noticesStore.getState().show(asIs('fyi'));
    const region = screen.getByRole('status');
    await within(region).findByText('fyi');
    expect(region.getAttribute('aria-live')).to.equal('polite');
    // Each notice is a child of the region; its icon is decorative (no role to find it by).
    const shown = [...region.children].map((notice) => [
      notice.textContent,
      notice.querySelector('svg')!.classList[1],
    ]);
    expect(shown).to.deep.equal([
      ['saved', 'snackbar-success'],
      ['broken', 'snackbar-failure'],
      ['fyi', 'snackbar-neutral'],
    ]);
  });
});

/**
 * A hand-driven clock for the store's timers: `setTimeout`, `clearTimeout` and `Date.now` are replaced
 * until `restore`, and `tick` moves the time on, running the timers that come due.
 */
function handClock() {
  const real = { setTimeout: window.setTimeout, clearTimeout: window.clearTimeout, now: Date.now };
  let now = 0;
  let nextId = 1;
  const timers = new Map<number, { at: number; run: () => void }>();
  window.setTimeout = ((run: () => void, ms = 0) => {
    timers.set(nextId, { at: now + ms, run });
    return nextId++;
  }) as typeof setTimeout;
  window.clearTimeout = ((id: number) => timers.delete(id)) as typeof clearTimeout;
  Date.now = () => now;
  return {
    tick(ms: number) {
      now += ms;
      for (const [id, timer] of [...timers].sort(([, a], [, b]) => a.at - b.at)) {
        if (timer.at > now) continue;
        timers.delete(id);
        act(() => timer.run());
      }
    },
    restore() {
      Object.assign(window, { setTimeout: real.setTimeout, clearTimeout: real.clearTimeout });
      Date.now = real.now;
    },
  };
}

describe('ui/snackbar, timing adjustable', () => {
  afterEach(() => noticesStore.setState({ queue: [] }));

  it('keeps a notice while the pointer rests on it or the focus is in it, then lets it go', () => {
    const clock = handClock();
    try {
      render(<Snackbar />);
      act(() => void noticesStore.getState().show(asIs('saved'), 'Success'));
      const region = screen.getByRole('status');
      const notice = within(region).getByText('saved').parentElement!;
      expect(notice.tabIndex).to.equal(0);

      clock.tick(1000);
      fireEvent.pointerEnter(region);
      clock.tick(10_000);
      expect(within(region).queryByText('saved')).to.not.equal(null);

      // Focus holds it too: leaving with the pointer while the focus is in it keeps it.
      fireEvent.focus(notice);
      fireEvent.pointerLeave(region);
      clock.tick(10_000);
      expect(within(region).queryByText('saved')).to.not.equal(null);

      // Let go: the 1500 ms it had left, not a fresh 2500 ms.
      fireEvent.blur(notice);
      clock.tick(1400);
      expect(within(region).queryByText('saved')).to.not.equal(null);
      clock.tick(100);
      expect(within(region).queryByText('saved')).to.equal(null);
    } finally {
      clock.restore();
    }
  });
});

describe('ui/text-field', () => {
  it('refuses the input types that are not text inputs (spec §5)', () => {
    expect(UNSUPPORTED_TYPES).to.deep.equal([
      'button',
      'checkbox',
      'file',
      'hidden',
      'image',
      'radio',
      'range',
      'reset',
      'submit',
    ]);
    for (const type of UNSUPPORTED_TYPES) {
      expect(() => TextField({ label: 'x', type }), type).to.throw(
        `TextField does not support type="${type}"`,
      );
    }
    const types = ['text', 'email', 'password', 'search', 'tel', 'url'];
    render(
      <>
        {types.map((type) => (
          <TextField key={type} label={type} type={type} />
        ))}
      </>,
    );
    expect(types.map((type) => (screen.getByLabelText(type) as HTMLInputElement).type)).to.deep.equal(types);
  });

  function Limited({ initial = '' }: { initial?: string }) {
    const [value, setValue] = useState(initial);
    return (
      <TextField label="Name" limit={10} value={value} onChange={(event) => setValue(event.target.value)} />
    );
  }

  it('counts toward its limit from 80 % of it, and keeps pasted text past it with an error at the field', async () => {
    const { view } = await renderWithElement(<Limited />);
    const field = view.getByLabelText('Name') as HTMLInputElement;
    // No maxlength: the browser would cut a pasted text short without a word.
    expect(field.maxLength).to.equal(-1);
    fireEvent.change(field, { target: { value: 'abcdefg' } });
    expect(view.queryByText(/left/)).to.equal(null);
    fireEvent.change(field, { target: { value: '  abcdefgh  ' } });
    const left = view.getByText('2 characters left');
    expect(field.getAttribute('aria-describedby')).to.contain(left.id);
    expect(field.getAttribute('aria-invalid')).to.equal(null);
    fireEvent.change(field, { target: { value: 'abcdefghi' } });
    expect(view.getByText('1 character left')).to.exist;
    // A paste past the limit: all of it stays, and the field says by how much it is too long.
    fireEvent.change(field, { target: { value: 'abcdefghijklm' } });
    expect(field.value).to.equal('abcdefghijklm');
    const over = view.getByText('3 characters too many');
    expect(over.className).to.equal('field-error');
    expect(field.getAttribute('aria-invalid')).to.equal('true');
    expect(field.getAttribute('aria-describedby')).to.contain(over.id);
    await expectNoAxeViolations(view.getByLabelText('Name').closest('.field')!);
  });

  it('counts characters as the server does: code points of the NFC form', async () => {
    const { view } = await renderWithElement(<Limited initial={'e\u0301'.repeat(9)} />);
    expect(view.getByText('1 character left')).to.exist;
    fireEvent.change(view.getByLabelText('Name'), { target: { value: '😀'.repeat(11) } });
    expect(view.getByText('1 character too many')).to.exist;
  });
});

/** Every brand has a mark and an icon-text image (wordmark), both our own SVGs. */
describe('brand artwork', () => {
  for (const id of BRAND_IDS) {
    it(`${id}: the wordmark is a named SVG image of the brand's name, drawn in currentColor`, () => {
      const { Wordmark, name } = BRANDS[id];
      render(<Wordmark label={name} size={20} />);
      const svg = screen.getByRole('img', { name });
      expect(svg.tagName).to.equal('svg');
      expect(svg.getAttribute('role')).to.equal('img');
      expect(svg.getAttribute('aria-label')).to.equal(name);
      expect(svg.textContent!.toLowerCase()).to.equal(name.toLowerCase());
      expect(svg.querySelector('text')!.getAttribute('fill')).to.equal('currentColor');
      // Laid out at the asked height with the width of its own box, whatever font the page has.
      const box = svg.getBoundingClientRect();
      expect(box.height).to.equal(20);
      expect(box.width).to.be.greaterThan(60);
      const [, , w = 0, h = 1] = svg.getAttribute('viewBox')!.split(' ').map(Number);
      expect(box.width / box.height).to.be.closeTo(w / h, 0.01);
    });

    it(`${id}: without a label the wordmark is decorative (hidden from screen readers)`, () => {
      const { Wordmark } = BRANDS[id];
      const { container } = render(<Wordmark />);
      expect(screen.queryByRole('img')).to.equal(null);
      // Hidden from the accessibility tree, so found by its tag.
      const svg = container.querySelector('svg')!;
      expect(svg.getAttribute('aria-hidden')).to.equal('true');
      expect(svg.hasAttribute('role')).to.equal(false);
    });
  }

  it('gives each brand its own wordmark and mark', () => {
    const marks = new Set(BRAND_IDS.map((id) => BRANDS[id].Icon));
    const words = new Set(BRAND_IDS.map((id) => BRANDS[id].Wordmark));
    expect(marks.size).to.equal(BRAND_IDS.length);
    expect(words.size).to.equal(BRAND_IDS.length);
  });
});
