import { MemoryRouter } from '../../ui/router';
import ManageArea from './manage-area';

/** `<acct-manage>` on its own: the manage area in a memory router (the host page's URL never changes). */
export default function ManageElement() {
  return (
    <MemoryRouter initial="/manage">
      <ManageArea standalone />
    </MemoryRouter>
  );
}
