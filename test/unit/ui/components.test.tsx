import { expect } from 'chai';
import { waitFor } from '@testing-library/dom';
import { act, useState } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { BRAND_IDS, BRANDS } from '../../../src/brands';
import { noticesStore } from '../../../src/state/notices';
import { Dialog } from '../../../src/ui/dialog';
import { Snackbar } from '../../../src/ui/snackbar';
import { elementCss } from '../../../src/styles/sheet';
import { TextField, UNSUPPORTED_TYPES } from '../../../src/ui/text-field';

// React's act() needs this flag outside a test framework that sets it.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let host: HTMLElement;
let root: Root;
beforeEach(() => {
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
});
afterEach(() => {
  act(() => root.unmount());
  host.remove();
});

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
  target.dispatchEvent(event);
  return event;
};

describe('ui/dialog', () => {
  it('opens modally, closes on Escape, and gives focus back to its opener', async () => {
    let closed = 0;
    act(() => root.render(<Harness closable onClosed={() => closed++} />));
    const opener = host.querySelector('button')!;
    opener.focus();
    act(() => opener.click());
    const dialog = host.querySelector('dialog')!;
    expect(dialog.open).to.equal(true);
    expect(dialog.getAttribute('aria-labelledby')).to.equal(dialog.querySelector('h2')!.id);
    const event = escape(dialog);
    expect(event.defaultPrevented, 'the browser does not close it behind React').to.equal(true);
    await act(async () => undefined);
    expect(closed).to.equal(1);
    await waitFor(() => expect(dialog.open).to.equal(false));
    expect(document.activeElement).to.equal(opener);
  });

  it('stays open on Escape while closing is disabled', async () => {
    let closed = 0;
    act(() => root.render(<Harness closable={false} onClosed={() => closed++} />));
    act(() => host.querySelector('button')!.click());
    const dialog = host.querySelector('dialog')!;
    escape(dialog);
    await new Promise((r) => setTimeout(r, 150));
    expect(closed).to.equal(0);
    expect(dialog.open).to.equal(true);
  });

  it('opens again when the browser closes it while closing is disabled (a second Escape, a script)', async () => {
    let closed = 0;
    act(() => root.render(<Harness closable={false} onClosed={() => closed++} />));
    act(() => host.querySelector('button')!.click());
    const dialog = host.querySelector('dialog')!;
    // What Chrome does on a second Escape with no user activation in between: close, without a
    // cancelable cancel. The `close` event follows in a task.
    await act(async () => {
      dialog.close();
      await new Promise((r) => setTimeout(r, 30));
    });
    expect(dialog.open).to.equal(true);
    expect(dialog.matches(':modal'), 'modal again').to.equal(true);
    expect(closed).to.equal(0);
    expect(host.querySelector('input[aria-label="inside"]')).to.not.equal(null);
  });

  it('tells its owner when the browser closes it while closing is allowed', async () => {
    let closed = 0;
    act(() => root.render(<Harness closable onClosed={() => closed++} />));
    act(() => host.querySelector('button')!.click());
    const dialog = host.querySelector('dialog')!;
    await act(async () => {
      dialog.close();
      await new Promise((r) => setTimeout(r, 30));
    });
    expect(closed).to.equal(1);
    expect(dialog.open).to.equal(false);
    expect(host.querySelector('input[aria-label="inside"]'), 'the content follows the state').to.equal(null);
    // And it opens again normally.
    act(() => host.querySelector('button')!.click());
    expect(dialog.open).to.equal(true);
  });

  it('keeps its content while the exit animation plays', async () => {
    act(() => root.render(<Harness closable onClosed={() => undefined} />));
    act(() => host.querySelector('button')!.click());
    const dialog = host.querySelector('dialog')!;
    await act(async () => void escape(dialog));
    expect(dialog.classList.contains('closing')).to.equal(true);
    expect(dialog.open).to.equal(true);
    expect(host.querySelector('input[aria-label="inside"]'), 'content during the animation').to.not.equal(
      null,
    );
    await act(() => new Promise((r) => setTimeout(r, 150)));
    expect(dialog.open).to.equal(false);
    expect(host.querySelector('input[aria-label="inside"]'), 'gone once closed').to.equal(null);
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
            returnFocus={() => host.querySelector<HTMLElement>('button')}
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
    act(() => root.render(<Asking />));
    const opener = host.querySelector('button')!;
    opener.focus();
    act(() => opener.click());
    const dialog = host.querySelector('dialog')!;
    expect(dialog.getAttribute('role')).to.equal('alertdialog');
    expect(dialog.getAttribute('aria-describedby')).to.equal('question');
    act(() => dialog.querySelector('button')!.click());
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
  it('shows each notice with the icon of its mode in a polite live region', () => {
    act(() => root.render(<Snackbar />));
    act(() => {
      noticesStore.getState().show('saved', 'Success');
      noticesStore.getState().show('broken', 'Failure');
      noticesStore.getState().show('fyi');
    });
    const region = host.querySelector('[role="status"]')!;
    expect(region.getAttribute('aria-live')).to.equal('polite');
    const shown = [...region.querySelectorAll('.snackbar')].map((el) => [
      el.textContent,
      el.querySelector('svg')!.classList[1],
    ]);
    expect(shown).to.deep.equal([
      ['saved', 'snackbar-success'],
      ['broken', 'snackbar-failure'],
      ['fyi', 'snackbar-neutral'],
    ]);
    act(() => noticesStore.setState({ queue: [] }));
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
    act(() =>
      root.render(
        <>
          {['text', 'email', 'password', 'search', 'tel', 'url'].map((type) => (
            <TextField key={type} label={type} type={type} />
          ))}
        </>,
      ),
    );
    expect([...host.querySelectorAll('input')].map((input) => input.type)).to.deep.equal([
      'text',
      'email',
      'password',
      'search',
      'tel',
      'url',
    ]);
  });
});

/** Issue 2: every brand has a mark and an icon-text image (wordmark), both our own SVGs. */
describe('brand artwork', () => {
  for (const id of BRAND_IDS) {
    it(`${id}: the wordmark is a named SVG image of the brand's name, drawn in currentColor`, () => {
      const { Wordmark, name } = BRANDS[id];
      act(() => root.render(<Wordmark label={name} size={20} />));
      const svg = host.querySelector('svg')!;
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
      act(() => root.render(<Wordmark />));
      const svg = host.querySelector('svg')!;
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
