import { expect } from 'chai';
import { fireEvent } from '@testing-library/react';
import SearchPage from '../../../../src/features/search/search-page';
import { expectNoAxeViolations, renderWithElement } from '../../render';

/** The search page (spec §2) as a component test with one axe check. */
describe('search screen (component)', () => {
  it('has a named search field in a search landmark, and says what it searches for; axe-clean', async () => {
    const { view, container } = await renderWithElement(<SearchPage />, { route: '/search' });
    expect(view.getByRole('heading', { level: 1, name: 'Search results' })).to.exist;
    const field = view.getByRole('searchbox', { name: 'Search' });
    expect(view.getByRole('search').contains(field)).to.equal(true);
    expect(view.getByText('Type something to search.')).to.exist;
    fireEvent.change(field, { target: { value: 'ada' } });
    expect(view.getByRole('status').textContent).to.equal('Searching for “ada”…');
    expect(field).to.have.property('value', 'ada');
    await expectNoAxeViolations(container);
  });
});
