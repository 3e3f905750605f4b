import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouter, useSearchParam } from '../../ui/router';
import { Spinner } from '../../ui/spinner';

/**
 * The search page (spec §2): 'search results', a spinner while there is a query, otherwise the prompt to
 * type something. Typing updates /search?q=… (replacing the history entry, so Back leaves the page).
 */
export default function SearchPage() {
  const { t } = useTranslation();
  const router = useRouter();
  const query = useSearchParam('q') ?? '';
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    input.current?.focus();
  }, []);

  return (
    <div className="page stack">
      <h1 className="title">{t('search.title')}</h1>
      <form role="search" className="search-form" onSubmit={(event) => event.preventDefault()}>
        <label htmlFor="search-input" className="visually-hidden">
          {t('search.label')}
        </label>
        <input
          ref={input}
          id="search-input"
          type="search"
          part="input"
          value={query}
          placeholder={t('search.placeholder')}
          onChange={(event) => {
            const q = event.target.value;
            router.navigate(q ? `/search?${new URLSearchParams({ q })}` : '/search', { replace: true });
          }}
        />
      </form>
      {query ? (
        <div className="loading" role="status">
          <Spinner />
          <span>{t('search.searching', { query })}</span>
        </div>
      ) : (
        <p>{t('search.prompt')}</p>
      )}
    </div>
  );
}
