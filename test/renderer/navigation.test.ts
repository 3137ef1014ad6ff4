// The navigation's groups as the profile and the token's rights decide them
// (renderer/screens/navigation.ts): a trainer's shell stays short, a refused area is not offered,
// and every workspace keeps its Alt number whatever else is shown.
import { describe, expect, it } from 'vitest';
import type { AreaStatus } from '../../sync/contract';
import { visibleWorkspaces, WORKSPACE_ENTRIES } from '../../renderer/screens/navigation';

const refused = (area: AreaStatus['area'], state: 'forbidden' | 'unlicensed'): AreaStatus => ({
  area,
  state,
  collections: [],
  message: { de: '', en: '' },
});

const ids = (...args: Parameters<typeof visibleWorkspaces>) =>
  visibleWorkspaces(...args).map((entry) => entry.id);

describe('the navigation', () => {
  it('shows the office everything, in groups: work, office, then the sync centre and settings', () => {
    const shown = visibleWorkspaces({ profile: 'office', unavailableAreas: [] });
    expect(shown.map((entry) => entry.id)).toEqual(WORKSPACE_ENTRIES.map((entry) => entry.id));
    const groups = shown.map((entry) => entry.group);
    expect(groups).toEqual([...groups].sort((a, b) => order(a) - order(b)));
  });

  it("keeps a trainer's shell to the daily work: no office area", () => {
    const shown = visibleWorkspaces({ profile: 'trainer', unavailableAreas: [] });
    expect(shown.some((entry) => entry.group === 'office')).toBe(false);
    expect(ids({ profile: 'trainer', unavailableAreas: [] })).toContain('courses');
    expect(ids({ profile: null, unavailableAreas: [] })).not.toContain('personnel');
  });

  it('hides an area the service refuses or the organisation has not licensed, nothing else', () => {
    const shown = ids({
      profile: 'office',
      unavailableAreas: [refused('personnel', 'forbidden'), refused('notifications', 'unlicensed')],
    });
    expect(shown).not.toContain('personnel');
    expect(shown).not.toContain('notifications');
    expect(shown).toContain('syncCenter');
    // A partly readable area stays: what it can read is shown.
    const partial = { ...refused('personnel', 'forbidden'), state: 'partial' as const };
    expect(ids({ profile: 'office', unavailableAreas: [partial] })).toContain('personnel');
  });

  it('offers Kalender to whoever may use calendars, Stammdaten to the office only', () => {
    expect(ids({ profile: 'trainer', unavailableAreas: [] })).toContain('calendars');
    expect(ids({ profile: 'trainer', unavailableAreas: [] })).not.toContain('reference');
    expect(ids({ profile: 'office', unavailableAreas: [] })).toContain('reference');
    const refusedCalendars = [refused('calendars', 'forbidden')];
    expect(ids({ profile: 'trainer', unavailableAreas: refusedCalendars })).not.toContain(
      'calendars',
    );
  });

  it('gives every workspace its own Alt number from 1 to 9', () => {
    const keys = WORKSPACE_ENTRIES.map((entry) => entry.key);
    expect(new Set(keys).size).toBe(keys.length);
    for (const key of keys) expect(key >= 1 && key <= 9).toBe(true);
  });
});

function order(group: string): number {
  return ['work', 'office', 'system'].indexOf(group);
}
