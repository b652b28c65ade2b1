/**
 * Snapshots of older versions, brought to this one before they are checked and restored (`restore`, `PUT
 * /__mock/state`, `importState`, a state file). Version 1 (before authorizations had a life): an APPROVED
 * authorization was captured at once, so it becomes CLEARED for its amount; a DECLINED one stays DECLINED; approvals
 * held nothing. Any other version is left as it is, and the snapshot schema refuses it naming what to do.
 * @module
 */

/** The version of the tenant state this code writes. */
export const TENANT_STATE_VERSION = 2;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `value` brought to {@link TENANT_STATE_VERSION} when it is a tenant state of an older version this code knows (a new
 * object; `value` is not changed), else `value` itself.
 */
export function migrateSnapshot(value: unknown): unknown {
  if (!isObject(value) || value.version !== 1) return value;
  const migrated: Json = { ...value, version: TENANT_STATE_VERSION };
  if (isObject(value.approvals)) {
    migrated.approvals = Object.fromEntries(
      Object.entries(value.approvals).map(([key, a]) => [key, isObject(a) ? { ...a, held: 0 } : a]),
    );
  }
  if (isObject(value.authorizations)) {
    migrated.authorizations = Object.fromEntries(
      Object.entries(value.authorizations).map(([key, a]) => [key, isObject(a) ? authorizationV2(a) : a]),
    );
  }
  return migrated;
}

function authorizationV2(a: Json): Json {
  const amount = isObject(a.amount) && typeof a.amount.amount === 'number' ? a.amount.amount : 0;
  const approved = a.status === 'APPROVED';
  const at = a.createdAt;
  return {
    ...a,
    state: approved ? 'CLEARED' : 'DECLINED',
    authorized: approved ? amount : 0,
    held: 0,
    captured: approved ? amount : 0,
    refunded: 0,
    expiresAt: null,
    steps: [
      { kind: 'authorize', amount, declineReason: a.declineReason ?? null, at },
      ...(approved ? [{ kind: 'capture', amount, declineReason: null, at }] : []),
    ],
    updatedAt: at,
  };
}
