// Signing in and out as the pages before the shell see it: a login call (account.login,
// account.demo) and its cancel (account.cancelLogin), whose "cancelled" is no error to show when
// the person asked for it here; and what the last sign-out of this page did with the local data,
// so the signed-out page says what is true.
import { create } from 'zustand';
import type { AppState } from './contract';
import { asCoreError, reportError, useApp } from './stores';

/** The person pressed "cancel" while a login call of this page ran. */
let cancelAsked = false;

/**
 * Runs a login call and answers its state; a failure throws, except the "cancelled" of a cancel
 * asked for here (null: the cancel's answer has set the state already).
 */
export async function signInWith(call: () => Promise<AppState>): Promise<AppState | null> {
  cancelAsked = false;
  try {
    const state = await call();
    useSignOut.setState({ deletedLocalData: false });
    return state;
  } catch (error) {
    if (cancelAsked && asCoreError(error).code === 'cancelled') return null;
    throw error;
  } finally {
    cancelAsked = false;
  }
}

/** Cancels the running login (the core closes its listener); the app's state follows. */
export async function cancelSignIn(): Promise<void> {
  const bridge = useApp.getState().bridge;
  if (!bridge) return;
  cancelAsked = true;
  try {
    useApp.getState().setState(await bridge.call('account.cancelLogin', {}));
  } catch (error) {
    reportError(error);
  }
}

/** The last sign-out from this page: whether it deleted the data on this computer. */
export const useSignOut = create<{ deletedLocalData: boolean }>()(() => ({
  deletedLocalData: false,
}));
