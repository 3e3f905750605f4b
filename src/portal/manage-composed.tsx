import ManageElement from '../features/manage/manage-element';
import { MANAGE_SECTIONS } from './manage-sections';

/** `<acct-manage>`: the standalone manage area with every section, as one lazily loaded chunk. */
export default function ComposedManage() {
  return <ManageElement sections={MANAGE_SECTIONS} />;
}
