import { expect } from 'chai';
import { fireEvent } from '@testing-library/react';
import QrSection from '../../../../src/features/qr/qr-section';
import { expectNoAxeViolations, renderWithElement } from '../../render';
import { logoutEverywhere, serverReady, signInAs } from '../../support';

before(serverReady);
afterEach(logoutEverywhere);

/** QR code login (spec §2) as a component test with one axe check, on a code from the real server. */
describe('QR code screen (component)', () => {
  it('generates a named QR image with its code in the caption; axe-clean', async () => {
    await signInAs('ada@acme.test');
    const { view, container } = await renderWithElement(<QrSection />);
    // Its texts come in their own part: the intro shows once they are in.
    expect(await view.findByText('Sign in to the mobile app by scanning a QR code with it.')).to.exist;
    fireEvent.click(view.getByRole('button', { name: 'Generate QR code' }));
    const image = await view.findByRole('img', { name: 'QR code for signing in to the mobile app' });
    // The image's figure, whose caption gives the code to type and how long it lasts.
    const figure = view.getByRole('figure');
    expect(figure.contains(image)).to.equal(true);
    expect(figure.textContent).to.match(/^Code \S+\. It works once and expires in \d+ minutes?\.$/);
    await expectNoAxeViolations(container);
  });
});
