// The sync profile chosen for a person who signs in with an own account (the demo's role says its
// own): the one that fits what the token may read, told by the scopes the login granted or by the
// service refusing people to the office profile, unless the person chose one in the settings.
import type { AppSettings } from '../contract';
import type { SyncSummary } from '../pull/engine';
import { profileForScopes, refusedPeople } from '../pull/profile';
import type { SessionContext } from './session-context';

export type ProfileChoice = ReturnType<typeof createProfileChoice>;

export function createProfileChoice(
  ctx: SessionContext,
  updateAppSettings: (change: Partial<AppSettings>) => AppSettings,
) {
  /** Chosen for the person: an own account, and they have not chosen themselves. */
  const ours = () => {
    const settings = ctx.settings();
    return settings.account?.demo === false && !settings.profileChosen;
  };
  return {
    /** A login granted these scopes: the profile they fit, before the first sync. */
    afterLogin(scope: string | undefined): void {
      const fitting = profileForScopes(scope);
      if (fitting && ours() && ctx.settings().app.profile !== fitting)
        updateAppSettings({ profile: fitting });
    },
    /** The service refused people to the office profile: the trainer's from now on. */
    afterSync(summary: Pick<SyncSummary, 'profile' | 'unavailable'>): void {
      if (ours() && refusedPeople(summary) && ctx.settings().app.profile === 'office')
        updateAppSettings({ profile: 'trainer' });
    },
    /** The person chose a profile in the settings: it stays theirs (until another service's account). */
    chosenByPerson(): void {
      if (!ctx.settings().profileChosen)
        ctx.saveSettings({ ...ctx.settings(), profileChosen: true });
    },
  };
}
