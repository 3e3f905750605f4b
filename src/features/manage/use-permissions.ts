import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import { getPermissions, type Permissions } from '../../api/endpoints';
import { sessionStore } from '../../state/session';
import { useElement } from '../../ui/element-context';

/** The signed-in user's permissions, once per user for the page: the sidebar and personal info share it. */
const asked = new Map<string, Promise<Permissions>>();

function permissionsOf(key: string, language: string): Promise<Permissions> {
  let pending = asked.get(key);
  if (!pending) {
    pending = sessionStore.getState().authorized((ctx) => getPermissions(ctx), language);
    asked.set(key, pending);
    // A failure is not kept: the next screen that asks tries again.
    pending.catch(() => asked.delete(key));
  }
  return pending;
}

export type PermissionsState = Permissions | null | 'failed';

/** The user's permissions: null while they load, 'failed' when they could not. */
export function usePermissions(): PermissionsState {
  const { language } = useElement();
  const user = useStore(sessionStore, (state) => state.user);
  const key = user ? `${user.team_id}/${user.sub}` : null;
  const [state, setState] = useState<{ key: string; value: PermissionsState } | null>(null);

  useEffect(() => {
    if (!key) return;
    let live = true;
    permissionsOf(key, language).then(
      (granted) => live && setState({ key, value: granted }),
      () => live && setState({ key, value: 'failed' }),
    );
    return () => {
      live = false;
    };
  }, [key, language]);

  return state && state.key === key ? state.value : null;
}

/** Team admins are members with OWNER or ADMIN (design §7). */
export function isTeamAdmin(permissions: PermissionsState): boolean {
  return (
    typeof permissions === 'object' && permissions !== null && Boolean(permissions.OWNER || permissions.ADMIN)
  );
}
