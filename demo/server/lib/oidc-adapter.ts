import { errors, type Adapter, type AdapterPayload } from 'oidc-provider';
import type { OidcModelsRepository, FoundOidcModel } from '../db/oidc-models';
import type { Clock } from './clock';

/**
 * oidc-provider's storage on the server's database (SQLite or PostgreSQL, through db/oidc-models.ts):
 * one class per model, as the provider asks for it. Expired objects are never returned; `consume` is a
 * single conditional update, and the one that loses a race is told the code was already used.
 */
/** Expired objects are deleted at most this often, at a write (reads never see them anyway). */
const PURGE_EVERY_MS = 10 * 60 * 1000;

/** The objects whose issue is a use of their grant. */
const USES = new Set(['AuthorizationCode', 'RefreshToken']);

/**
 * The clients that are not the configuration's (a team's own apps, lib/team-apps.ts): `find` reads one
 * at each lookup (the provider keeps a client under a hash of what was read, so a change of the app —
 * a new secret, disabled, deleted, other addresses — counts at the next request, on every node), and
 * `used` says when it last got a code or a refresh token.
 */
export interface AdapterClients {
  find(clientId: string): Promise<AdapterPayload | undefined>;
  used(clientId: string, now: number): Promise<void>;
}

export function oidcAdapter(
  repo: OidcModelsRepository,
  clock: Clock,
  clients: AdapterClients,
): new (model: string) => Adapter {
  let lastPurge = 0;
  const payloadOf = (found: FoundOidcModel | undefined): AdapterPayload | undefined => {
    if (!found) return undefined;
    const payload = JSON.parse(found.payload) as AdapterPayload;
    // The provider reads `consumed` (seconds) to refuse a code or token used before.
    return found.consumedAt === null
      ? payload
      : { ...payload, consumed: Math.floor(found.consumedAt / 1000) };
  };

  return class DatabaseAdapter implements Adapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const now = clock.now();
      if (now - lastPurge > PURGE_EVERY_MS) {
        lastPurge = now;
        await repo.purge(now);
      }
      await repo.upsert(this.model, id, {
        payload: JSON.stringify(payload),
        grantId: payload.grantId ?? null,
        userCode: payload.userCode ?? null,
        uid: payload.uid ?? null,
        expiresAt: expiresIn ? now + expiresIn * 1000 : null,
        accountId: typeof payload.accountId === 'string' ? payload.accountId : null,
        clientId: typeof payload.clientId === 'string' ? payload.clientId : null,
      });
      // When the app last used the grant, for the connected apps screen: a new grant, a code, a
      // (rotated) refresh token. Access tokens are JWTs the provider does not store.
      if (this.model === 'Grant') await repo.touchGrant(id, now);
      else if (payload.grantId && USES.has(this.model)) await repo.touchGrant(payload.grantId, now);
      if (USES.has(this.model) && typeof payload.clientId === 'string')
        await clients.used(payload.clientId, now);
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      if (this.model === 'Client') return clients.find(id);
      return payloadOf(await repo.find(this.model, id, clock.now()));
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return payloadOf(await repo.findByUid(this.model, uid, clock.now()));
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      return payloadOf(await repo.findByUserCode(this.model, userCode, clock.now()));
    }

    async destroy(id: string): Promise<void> {
      await repo.destroy(this.model, id);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await repo.revokeByGrantId(this.model, grantId);
    }

    async consume(id: string): Promise<void> {
      // The provider checked `consumed` just before; another request may have used the code since.
      if (!(await repo.consume(this.model, id, clock.now())))
        throw new errors.InvalidGrant('already consumed or expired');
    }
  };
}
