/**
 * An in-memory storage adapter for one test issuer: nothing is shared between issuers, nothing
 * outlives `close()`, and no timers are armed (expiry is checked when an entry is read).
 * Passing any adapter also keeps `oidc-provider` from printing its "development-only adapter"
 * warning on every start.
 */

type Payload = Record<string, unknown> & {
  uid?: string;
  grantId?: string;
  userCode?: string;
  consumed?: number;
};

interface Entry {
  payload: Payload;
  expiresAt: number;
}

const GRANTABLE = new Set([
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
]);

export function createMemoryAdapter(): (model: string) => object {
  const entries = new Map<string, Entry>();
  const sessionByUid = new Map<string, string>();
  const byUserCode = new Map<string, string>();
  const grantMembers = new Map<string, Set<string>>();

  const read = (key: string): Payload | undefined => {
    const entry = entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now()) {
      entries.delete(key);
      return undefined;
    }
    return entry.payload;
  };

  return (model: string) => {
    const key = (id: string) => `${model}:${id}`;
    return {
      async upsert(id: string, payload: Payload, expiresIn?: number): Promise<void> {
        const expiresAt =
          typeof expiresIn === 'number' ? Date.now() + expiresIn * 1000 : Number.POSITIVE_INFINITY;
        entries.set(key(id), { payload, expiresAt });
        if (model === 'Session' && payload.uid) sessionByUid.set(payload.uid, id);
        if (payload.userCode) byUserCode.set(payload.userCode, id);
        if (GRANTABLE.has(model) && payload.grantId) {
          const members = grantMembers.get(payload.grantId) ?? new Set<string>();
          members.add(key(id));
          grantMembers.set(payload.grantId, members);
        }
      },
      async find(id: string): Promise<Payload | undefined> {
        return read(key(id));
      },
      async findByUid(uid: string): Promise<Payload | undefined> {
        const id = sessionByUid.get(uid);
        return id === undefined ? undefined : read(key(id));
      },
      async findByUserCode(userCode: string): Promise<Payload | undefined> {
        const id = byUserCode.get(userCode);
        return id === undefined ? undefined : read(key(id));
      },
      async consume(id: string): Promise<void> {
        const payload = read(key(id));
        if (payload) payload.consumed = Math.floor(Date.now() / 1000);
      },
      async destroy(id: string): Promise<void> {
        entries.delete(key(id));
      },
      async revokeByGrantId(grantId: string): Promise<void> {
        for (const member of grantMembers.get(grantId) ?? []) entries.delete(member);
        grantMembers.delete(grantId);
      },
    };
  };
}
