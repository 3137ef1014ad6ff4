// The users who may log in: records of type 'account' (see sandbox/data/store.ts), joined
// with their personnel record for a name to show.
import type { AccountAttributes, Role, Store, StoredResource } from '../data/store';

export interface DemoAccount {
  userId: string;
  role: Role;
  /** "Vorname Nachname" */
  name: string;
  username: string;
}

const ROLE_ORDER: readonly Role[] = ['office', 'trainer', 'member'];

function roleOf(account: StoredResource): Role {
  return (account.attributes as unknown as AccountAttributes).role;
}

export function accountRole(store: Store, userId: string): Role | undefined {
  const account = store.get('account', userId);
  return account && roleOf(account);
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** Every account, office first, then trainers, then members, each by name. */
export function listAccounts(store: Store): DemoAccount[] {
  const accounts = store.all('account').map((account): DemoAccount => {
    const user = store.get('user', account.id)?.attributes ?? {};
    return {
      userId: account.id,
      role: roleOf(account),
      name: [text(user.vorname), text(user.nachname)].filter(Boolean).join(' ') || account.id,
      username: text(user.username),
    };
  });
  return accounts.sort(
    (a, b) =>
      ROLE_ORDER.indexOf(a.role) - ROLE_ORDER.indexOf(b.role) || a.name.localeCompare(b.name, 'de'),
  );
}

/** A login_hint names an account by user id or (case-insensitively) by username. */
export function findAccount(
  accounts: readonly DemoAccount[],
  hint: string,
): DemoAccount | undefined {
  const lowered = hint.toLowerCase();
  return accounts.find(
    (account) =>
      account.userId === hint ||
      (account.username !== '' && account.username.toLowerCase() === lowered),
  );
}
