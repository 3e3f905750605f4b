/**
 * The minimal login floor: a heading, two fields and a button, unstyled, with React alone. A reference
 * column only, for figures taken against it (docs/decisions/bench-same-form-floor.md); no budget uses it.
 */
import { useState } from 'react';
import { createRoot } from 'react-dom/client';

function FloorLogin() {
  const [busy, setBusy] = useState(false);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        setBusy(true);
      }}
    >
      <h1>Sign in</h1>
      <label htmlFor="email">Email</label>
      <input id="email" name="email" type="email" autoComplete="username" required disabled={busy} />
      <label htmlFor="password">Password</label>
      <input
        id="password"
        name="password"
        type="password"
        autoComplete="current-password"
        required
        disabled={busy}
      />
      <button type="submit" disabled={busy}>
        Continue
      </button>
    </form>
  );
}

const host = document.getElementById('floor');
if (host) createRoot(host).render(<FloorLogin />);
