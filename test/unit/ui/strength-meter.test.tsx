import { expect } from 'chai';
import { fireEvent, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { ApiError } from '../../../src/api/client';
import { sayWith } from '../../../src/i18n/said';
import { NewPasswordFields, passwordRefusal, useNewPassword } from '../../../src/ui/new-password-fields';
import StrengthMeter from '../../../src/ui/strength/strength-meter';
import { expectNoAxeViolations, renderWithElement } from '../render';

/**
 * The server's first estimate starts its worker, and each language's first ranks its dictionaries: about
 * a second on a quiet machine, past eight with both cores busy (CI once failed here at eight).
 */
const LOADED = { timeout: 30_000 };

function Fields() {
  const fields = useNewPassword();
  const [password, onPassword] = useState('');
  return (
    <form>
      <NewPasswordFields {...fields} password={password} onPassword={onPassword} errors={{}} />
    </form>
  );
}

const liveRegion = (root: HTMLElement) => root.querySelector<HTMLElement>('.strength-text');

describe('ui/strength-meter', function () {
  this.timeout(40_000);

  it('has a visible label and an empty polite live region before anything is typed', async () => {
    const { view, container } = await renderWithElement(<StrengthMeter password="" />);
    await view.findByText('Password strength');
    const region = liveRegion(container)!;
    expect(region.getAttribute('aria-live')).to.equal('polite');
    expect(region.textContent).to.equal('');
    expect(view.getByRole('group', { name: 'Password strength' })).to.exist;
  });

  it('says why a password is easy to guess, in words', async () => {
    const { view, container, rerender } = await renderWithElement(<StrengthMeter password="password" />);
    await view.findByText('Password strength');
    await waitFor(
      () =>
        expect(liveRegion(container)!.textContent).to.equal(
          'Too easy to guess: it is one of the ten most used passwords',
        ),
      LOADED,
    );
    expect(container.querySelector('.strength-meter')!.getAttribute('data-score')).to.equal('0');
    rerender(<StrengthMeter password="sunshine" />);
    await waitFor(() => expect(liveRegion(container)!.textContent).to.match(/^Too easy to guess: /), LOADED);
    rerender(<StrengthMeter password="violet tractor quietly hums 71 hymns" />);
    await waitFor(() => expect(liveRegion(container)!.textContent).to.equal('Very hard to guess'), LOADED);
    expect(container.querySelector('.strength-meter')!.getAttribute('data-score')).to.equal('4');
    await expectNoAxeViolations(container);
  });

  it('says it cannot check now when no estimate comes, instead of keeping the last password’s', async () => {
    const { container, rerender } = await renderWithElement(<StrengthMeter password="password" />);
    await waitFor(() => expect(liveRegion(container)!.textContent).to.match(/^Too easy to guess: /), LOADED);
    // The network drops: what the browser does offline, for the estimate's address only.
    const realFetch = globalThis.fetch;
    globalThis.fetch = (input: RequestInfo | URL, init?: RequestInit) =>
      String(input instanceof Request ? input.url : input).includes('/api/password/strength')
        ? Promise.reject(new TypeError('Failed to fetch'))
        : realFetch(input, init);
    try {
      rerender(<StrengthMeter password="violet tractor quietly hums 71 hymns" />);
      await waitFor(
        () => expect(liveRegion(container)!.textContent).to.equal('The strength can’t be checked right now'),
        LOADED,
      );
      expect(container.querySelector('.strength-meter')!.getAttribute('data-score')).to.equal('');
      await expectNoAxeViolations(container);
    } finally {
      globalThis.fetch = realFetch;
    }
    // Back online, the next pause in typing is estimated again.
    rerender(<StrengthMeter password="violet tractor quietly hums 72 hymns" />);
    await waitFor(() => expect(liveRegion(container)!.textContent).to.equal('Very hard to guess'), LOADED);
  });

  it('says it cannot check now while an estimate is long in coming, and shows it when it comes', async () => {
    const { container, rerender } = await renderWithElement(<StrengthMeter password="password" />);
    await waitFor(() => expect(liveRegion(container)!.textContent).to.match(/^Too easy to guess: /), LOADED);
    // The server takes the estimate's request and does not answer until it is let go.
    const realFetch = globalThis.fetch;
    let letGo = () => {};
    const held = new Promise<void>((resolve) => (letGo = resolve));
    globalThis.fetch = (input: RequestInfo | URL, init?: RequestInit) =>
      String(input instanceof Request ? input.url : input).includes('/api/password/strength')
        ? held.then(() => realFetch(input, init))
        : realFetch(input, init);
    try {
      rerender(<StrengthMeter password="violet tractor quietly hums 71 hymns" />);
      await waitFor(
        () => expect(liveRegion(container)!.textContent).to.equal('The strength can’t be checked right now'),
        { timeout: 10_000 },
      );
      expect(container.querySelector('.strength-meter')!.getAttribute('data-score')).to.equal('');
      letGo();
      await waitFor(() => expect(liveRegion(container)!.textContent).to.equal('Very hard to guess'), LOADED);
    } finally {
      globalThis.fetch = realFetch;
    }
  });

  it('names a single common word of the page’s language', async () => {
    const { container } = await renderWithElement(<StrengthMeter password="yesterday" />);
    await waitFor(
      () => expect(liveRegion(container)!.textContent).to.match(/it is a common word on its own$/),
      LOADED,
    );
  });

  it('counts the person’s own details as easy to guess', async () => {
    const { container } = await renderWithElement(
      <StrengthMeter password="Ivy Invitee" userInputs={['ivy@acme.test', 'Ivy Invitee', 'Acme']} />,
    );
    await waitFor(
      () =>
        expect(liveRegion(container)!.textContent).to.equal(
          'Too easy to guess: it contains your own details',
        ),
      LOADED,
    );
  });

  it('speaks the page’s language', async () => {
    const { view, container } = await renderWithElement(<StrengthMeter password="password" />, {
      language: 'fr',
    });
    await view.findByText('Robustesse du mot de passe');
    await waitFor(
      () =>
        expect(liveRegion(container)!.textContent).to.equal(
          'Trop facile à deviner : c’est l’un des dix mots de passe les plus utilisés',
        ),
      LOADED,
    );
  });

  it('sits under the new-password field, and typing goes on while it works', async () => {
    const { view, container } = await renderWithElement(<Fields />, { language: 'de' });
    const input = view.getByLabelText('Neues Passwort') as HTMLInputElement;
    await view.findByText('Passwortstärke');
    for (const value of ['p', 'pa', 'pas', 'pass', 'passw', 'passwo', 'passwor', 'password']) {
      fireEvent.change(input, { target: { value } });
      // Each keystroke shows at once: the estimate waits for a pause, never the field.
      expect(input.value).to.equal(value);
    }
    await waitFor(
      () => expect(liveRegion(container)!.textContent).to.match(/^Viel zu leicht zu erraten: /),
      LOADED,
    );
    fireEvent.change(input, { target: { value: '' } });
    expect(liveRegion(container)!.textContent).to.equal('');
  });

  it('says a rule the server refused in the element’s own texts, other refusals as the server put them', async () => {
    // The server's answer in English; the element speaks French: the rule is said in French.
    const refused = new ApiError(400, 'The password must have at least 8 characters.', {
      message: 'The password must have at least 8 characters.',
      code: 'tooShort',
    });
    function Refused() {
      const fields = useNewPassword();
      const refusal = passwordRefusal(refused);
      return <NewPasswordFields {...fields} errors={{ password: refusal, confirm: refusal }} />;
    }
    const { view } = await renderWithElement(<Refused />, { language: 'fr' });
    expect(await view.findAllByText('Le mot de passe doit contenir au moins 8 caractères.')).to.have.length(
      2,
    );

    const other = new ApiError(400, 'Les mots de passe ne correspondent pas.', { code: 'confirmMismatch' });
    const t = ((key: string) => key) as Parameters<typeof sayWith>[0];
    expect(sayWith(t, passwordRefusal(other))).to.equal('Les mots de passe ne correspondent pas.');
    expect(sayWith(t, passwordRefusal(new TypeError('offline')))).to.equal('common.failed');
  });
});
