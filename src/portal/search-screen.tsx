import { MANAGE_SCREENS } from '../features/manage/routes';
import SearchPage from '../features/search/search-page';

/**
 * The search page with the manage area's screen table as its index: composed here (features do not
 * import each other) and loaded with the search page's chunk, so the table adds nothing to the entry.
 */
export default function SearchScreen() {
  return <SearchPage screens={MANAGE_SCREENS} />;
}
