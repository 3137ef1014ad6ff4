// The workspaces and how the navigation groups them: the daily work first, the office's areas in
// their own group, the sync centre and the settings last. Each keeps its Alt number whether or
// not it is shown (muscle memory outlives a change of rights). What is shown follows the sync
// profile and the token's rights: a trainer's shell stays short, an area the service refuses
// (403) or the organisation has not licensed (423) is not offered (the sync centre says why).
import type { AreaName, SyncStatus } from '../contract';
import { useShallow } from 'zustand/react/shallow';
import { useSettings, useSync } from '../stores';

export interface WorkspaceEntry<Id extends string = string> {
  id: Id;
  /** Alt+key switches to it. */
  key: number;
  group: 'work' | 'office' | 'system';
  /** The service's area whose refusal hides it. */
  area?: AreaName;
  /** Shown to the office profile only (a trainer's token reads its own courses and hours). */
  office?: true;
}

export const WORKSPACE_ENTRIES = [
  { id: 'courses', key: 1, group: 'work', area: 'courses' },
  { id: 'hours', key: 2, group: 'work', area: 'hours' },
  { id: 'notifications', key: 3, group: 'work', area: 'notifications' },
  { id: 'calendars', key: 4, group: 'work', area: 'calendars' },
  { id: 'personnel', key: 5, group: 'office', area: 'personnel', office: true },
  { id: 'clients', key: 6, group: 'office', area: 'courses', office: true },
  { id: 'reference', key: 7, group: 'office', office: true },
  { id: 'syncCenter', key: 8, group: 'system' },
  { id: 'settings', key: 9, group: 'system' },
] as const satisfies readonly WorkspaceEntry[];

export type Workspace = (typeof WORKSPACE_ENTRIES)[number]['id'];

export const NAV_GROUPS = ['work', 'office', 'system'] as const;

/** The entries the profile and the areas' states allow, in the navigation's order. */
export function visibleWorkspaces(
  status: Pick<SyncStatus, 'profile' | 'unavailableAreas'>,
): readonly WorkspaceEntry<Workspace>[] {
  const refused = new Set(
    status.unavailableAreas
      .filter((area) => area.state === 'forbidden' || area.state === 'unlicensed')
      .map((area) => area.area),
  );
  const office = status.profile === 'office';
  return WORKSPACE_ENTRIES.filter((entry: WorkspaceEntry<Workspace>) => {
    if (entry.office && !office) return false;
    return !entry.area || !refused.has(entry.area);
  });
}

/** The visible entries; a screen re-renders only when the set changes, not on every status. */
export function useVisibleWorkspaces(): readonly WorkspaceEntry<Workspace>[] {
  // Before the first sync the replica names no profile: the one the settings will sync with.
  const chosen = useSettings((store) => store.settings?.profile ?? null);
  const ids = useSync(
    useShallow((store) =>
      visibleWorkspaces({
        profile: store.status?.profile ?? chosen,
        unavailableAreas: store.status?.unavailableAreas ?? [],
      }).map((entry) => entry.id),
    ),
  );
  return WORKSPACE_ENTRIES.filter((entry) => ids.includes(entry.id));
}
