import { expect } from 'chai';
import { fireEvent, waitFor, within } from '@testing-library/react';
import { PasskeyNameDialog } from '../../../../src/features/security/passkey-name-dialog';
import { loadLanguage } from '../../../../src/i18n/instance';
import { addTextPart } from '../../../../src/i18n/parts';
import { expectNoAxeViolations, renderWithElement } from '../../render';

describe('security/passkey-name-dialog', () => {
  it('keeps a pasted name past the server’s 50 characters whole and says so at the field, saving nothing', async () => {
    await addTextPart(await loadLanguage('en'), 'security');
    const saved: string[] = [];
    const { container } = await renderWithElement(
      <PasskeyNameDialog
        open
        title="Rename the passkey"
        submitLabel="Save"
        initial="Work laptop"
        save={async (name) => {
          saved.push(name);
          return null;
        }}
        onClose={() => {}}
      />,
    );
    const dialog = within(await waitFor(() => container.querySelector('dialog[open]') as HTMLElement));
    const field = dialog.getByLabelText('Name') as HTMLInputElement;
    expect(field.maxLength).to.equal(-1);
    const pasted = 'A passkey name that someone pasted from a long note!!';
    fireEvent.change(field, { target: { value: pasted } });
    expect(field.value).to.equal(pasted);
    expect(dialog.getByText('3 characters too many')).to.exist;
    expect(field.getAttribute('aria-invalid')).to.equal('true');
    fireEvent.click(dialog.getByRole('button', { name: 'Save' }));
    expect(await dialog.findByText('Use 1 to 50 characters, without control characters.')).to.exist;
    expect(saved).to.deep.equal([]);
    await expectNoAxeViolations(container);
  });
});
