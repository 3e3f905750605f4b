import { MemoryRouter } from '../../ui/router';
import ManageArea, { type ManageSections } from './manage-area';

/** `<acct-manage>` on its own: the manage area in a memory router (the host page's URL never changes). */
export default function ManageElement({ sections }: { sections?: ManageSections }) {
  return (
    <MemoryRouter initial="/manage">
      <ManageArea standalone sections={sections} />
    </MemoryRouter>
  );
}
