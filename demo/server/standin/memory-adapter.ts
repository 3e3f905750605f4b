import type { Adapter, AdapterPayload } from 'oidc-provider';

/**
 * The stand-in providers' storage: a plain in-memory map (their sessions and codes need not survive a
 * restart). Given explicitly, so oidc-provider does not warn about its own development adapter.
 */
export function memoryAdapter(): new (model: string) => Adapter {
  const store = new Map<string, { payload: AdapterPayload; expires: number }>();
  const grants = new Map<string, Set<string>>();
  return class MemoryAdapter implements Adapter {
    constructor(private readonly model: string) {}
    private key(id: string) {
      return `${this.model}:${id}`;
    }
    async upsert(id: string, payload: AdapterPayload, expiresIn: number) {
      store.set(this.key(id), { payload, expires: Date.now() + expiresIn * 1000 });
      if (payload.grantId) {
        const ids = grants.get(payload.grantId) ?? new Set();
        ids.add(this.key(id));
        grants.set(payload.grantId, ids);
      }
    }
    async find(id: string) {
      const entry = store.get(this.key(id));
      if (!entry) return undefined;
      if (entry.expires <= Date.now()) {
        store.delete(this.key(id));
        return undefined;
      }
      return entry.payload;
    }
    async findByUserCode(userCode: string) {
      return [...store.values()].find((entry) => entry.payload.userCode === userCode)?.payload;
    }
    async findByUid(uid: string) {
      return [...store.values()].find((entry) => entry.payload.uid === uid)?.payload;
    }
    async consume(id: string) {
      const entry = store.get(this.key(id));
      if (entry) entry.payload.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id: string) {
      store.delete(this.key(id));
    }
    async revokeByGrantId(grantId: string) {
      for (const key of grants.get(grantId) ?? []) store.delete(key);
      grants.delete(grantId);
    }
  };
}
