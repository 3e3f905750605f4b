import { expect } from 'chai';
import { fireEvent, waitFor } from '@testing-library/react';
import { ApiError } from '../../../../src/api/client';
import { codeDigits, emailCodeFailure } from '../../../../src/features/login/email-code';
import { SignInScreen } from '../../../../src/features/login/signin-screen';
import { expectNoAxeViolations, renderWithElement } from '../../render';
import { logoutEverywhere, serverReady } from '../../support';

// Against the real server: a team of its own that offers sign-in with an e-mail code
// (test/support/email-code.ts), made through the harness.
before(serverReady);
let team = '';
let member = '';
before(async () => {
  const made = (await (await fetch('/__test/email-code-team')).json()) as { team: string; email: string };
  team = made.team;
  member = made.email;
  await logoutEverywhere();
});

describe('sign-in with an e-mail code (component)', () => {
  it('keeps the digits of what is typed or pasted, six at most', () => {
    expect(codeDigits('123 456')).to.equal('123456');
    expect(codeDigits('123-456')).to.equal('123456');
    expect(codeDigits(' 12a3 ')).to.equal('123');
    expect(codeDigits('12345678')).to.equal('123456');
  });

  it('reads a refusal as the field’s error or the screen’s message', () => {
    const refusal = (status: number, code?: string) =>
      new ApiError(status, 'x', { message: 'x', ...(code ? { code } : {}) });
    expect(emailCodeFailure(refusal(401, 'invalidCode'))).to.equal('wrongCode');
    expect(emailCodeFailure(refusal(410, 'codeGone'))).to.deep.equal({ message: 'emailCode.gone' });
    expect(emailCodeFailure(refusal(403, 'notOffered'))).to.deep.equal({ message: 'emailCode.notOffered' });
    expect(emailCodeFailure(refusal(403))).to.deep.equal({ message: 'login.locked' });
    expect(emailCodeFailure(refusal(429))).to.deep.equal({ message: 'login.tooMany' });
    expect(emailCodeFailure(new Error('offline'))).to.deep.equal({ message: 'common.failed' });
  });

  it('asks for the address first, then the code: errors at the field, a resend after a wait; axe-clean', async () => {
    const { view, container } = await renderWithElement(<SignInScreen team={team} afterSignIn="event" />, {
      route: `/login/${team}`,
    });
    const ask = await view.findByRole('button', { name: 'Email me a code' });
    // The password stays: the team offers both.
    expect(view.getByLabelText('Password')).to.exist;
    fireEvent.click(ask);
    expect(await view.findByRole('textbox', { name: 'Email', description: 'Enter your email address.' })).to
      .exist;

    fireEvent.change(view.getByRole('textbox', { name: 'Email' }), { target: { value: member } });
    fireEvent.click(view.getByRole('button', { name: 'Email me a code' }));
    expect(await view.findByRole('heading', { level: 1, name: 'Check your email' })).to.exist;
    expect(view.getByText(new RegExp(`^If ${member} belongs to a member of Hooli`))).to.exist;
    const field = view.getByRole('textbox', { name: 'Code from the email' });
    expect(field.getAttribute('autocomplete')).to.equal('one-time-code');
    expect(field.getAttribute('inputmode')).to.equal('numeric');
    await waitFor(() => expect((field.getRootNode() as ShadowRoot).activeElement === field).to.equal(true));
    // A new mail only after a wait, which the button counts down.
    const resend = view.getByRole('button', { name: /^Send a new code \(0:\d\d\)$/ });
    expect(resend).to.have.property('disabled', true);

    fireEvent.click(view.getByRole('button', { name: 'Continue' }));
    expect(
      await view.findByRole('textbox', {
        name: 'Code from the email',
        description: 'Enter the six-digit code from the email.',
      }),
    ).to.exist;
    fireEvent.change(field, { target: { value: '12' } });
    fireEvent.click(view.getByRole('button', { name: 'Continue' }));
    expect(await view.findByRole('textbox', { description: 'The code has six digits.' })).to.exist;
    // Pasted with a space: the digits are the code.
    fireEvent.change(field, { target: { value: '000 000' } });
    expect(field).to.have.property('value', '000000');
    fireEvent.click(view.getByRole('button', { name: 'Continue' }));
    expect(
      await view.findByRole('textbox', {
        name: 'Code from the email',
        description: 'That code is not right. Check the newest email and try again.',
      }),
    ).to.exist;
    expect(field.getAttribute('aria-invalid')).to.equal('true');
    await expectNoAxeViolations(container);

    // Another way: back to the form, the address kept.
    fireEvent.click(view.getByRole('button', { name: 'Sign in another way' }));
    expect(await view.findByRole('textbox', { name: 'Email' })).to.have.property('value', member);
  });

  it('on the link’s page, a link that is not live says so, with the way back', async () => {
    const { view, container } = await renderWithElement(
      <SignInScreen team={team} afterSignIn="event" emailLink />,
      { route: `/login/${team}/emailCode?token=not-a-live-link` },
    );
    expect(
      await view.findByText(
        'This code or link was used, replaced by a newer one or has expired. Ask for a new code.',
      ),
    ).to.exist;
    await expectNoAxeViolations(container);
    fireEvent.click(view.getByRole('button', { name: 'Sign in another way' }));
    expect(await view.findByRole('button', { name: 'Email me a code' })).to.exist;
  });

  it('is not offered where the team has not turned it on', async () => {
    const { view } = await renderWithElement(<SignInScreen team="acme" afterSignIn="event" />, {
      route: '/login/acme',
    });
    await view.findByLabelText('Password');
    expect(view.queryByRole('button', { name: 'Email me a code' })).to.equal(null);
  });
});
