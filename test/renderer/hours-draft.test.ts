// The hours form's arithmetic (renderer/screens/hours/draft.ts): times in Europe/Berlin with the
// offset of that day, an end before the start on the next day, hours from the times, numbers
// typed with a comma, and a change that sends only what changed, all accepted by the contract's
// own schemas (the same check the form runs before anything is queued).
import { describe, expect, it } from 'vitest';
import { commands } from '../../sync/contract';
import {
  createArgs,
  draftOf,
  emptyDraft,
  hoursBetween,
  localProblems,
  parseAmount,
  times,
  updateArgs,
} from '../../renderer/screens/hours/draft';

const ANLASS = 'local-0b6f1c1e-2b7a-4c3e-9d1f-5a6b7c8d9e0f';

describe('the hours draft', () => {
  it('writes von and bis with the Berlin offset of the day; an end before the start is the next day', () => {
    expect(times({ day: '2026-07-01', start: '09:00', end: '13:30' })).toEqual({
      von: '2026-07-01T09:00:00+02:00',
      bis: '2026-07-01T13:30:00+02:00',
    });
    expect(times({ day: '2026-12-31', start: '22:00', end: '02:00' })).toEqual({
      von: '2026-12-31T22:00:00+01:00',
      bis: '2027-01-01T02:00:00+01:00',
    });
    // The night the clocks go back: 01:00–04:00 is four hours.
    expect(hoursBetween({ day: '2026-10-25', start: '01:00', end: '04:00' })).toBe(4);
    expect(hoursBetween({ day: '2026-11-20', start: '08:30', end: '16:30' })).toBe(8);
    expect(hoursBetween({ day: '2026-11-20', start: '18:00', end: '' })).toBeNull();
  });

  it('reads numbers typed either way and names what the contract cannot see', () => {
    expect(parseAmount('1,5')).toBe(1.5);
    expect(parseAmount('2.25')).toBe(2.25);
    expect(parseAmount('vier')).toBeNull();
    expect(parseAmount('')).toBeNull();
    expect(localProblems(emptyDraft('2026-11-20'))).toEqual(['start', 'stunden', 'anlass', 'typ']);
  });

  it('a new entry passes the contract; a change sends only what changed', () => {
    const draft = {
      ...emptyDraft('2026-11-20'),
      start: '08:30',
      end: '16:30',
      stunden: '8',
      anlassId: ANLASS,
      typId: '2',
      km: '12,5',
    };
    expect(localProblems(draft)).toEqual([]);
    const args = createArgs(draft, ANLASS);
    expect(args).toEqual({
      attributes: {
        von: '2026-11-20T08:30:00+01:00',
        bis: '2026-11-20T16:30:00+01:00',
        stunden: 8,
        anfahrt_km: 12.5,
      },
      relationships: {
        anlass: { data: { type: 'helferstunden_anlass', id: ANLASS } },
        typ: { data: { type: 'helferstunden_typ', id: '2' } },
      },
    });
    expect(commands['helferstunden.create'].safeParse(args).success).toBe(true);

    const before = draftOf(
      {
        id: '17',
        localState: null,
        userId: null,
        userName: null,
        von: '2026-11-20T08:30:00+01:00',
        bis: null,
        stunden: 2.5,
        freigegeben: false,
        anlass: 'Erste Hilfe',
        anlassTyp: 'kurs',
        typ: 'Ausbildung',
        anlassId: '9',
        typId: '2',
        bemerkung: null,
        anfahrtKm: null,
      },
      'de',
    );
    expect(before).toMatchObject({ start: '08:30', end: '', stunden: '2,5', anlassId: '9' });
    expect(updateArgs('17', before, before, '9')).toBeNull();
    const changed = updateArgs('17', before, { ...before, stunden: '3', bemerkung: 'spät' }, '9');
    expect(changed).toEqual({ id: '17', attributes: { stunden: 3, bemerkung: 'spät' } });
    expect(commands['helferstunden.update'].safeParse(changed).success).toBe(true);
    expect(updateArgs('17', before, before, ANLASS)).toEqual({
      id: '17',
      relationships: { anlass: { data: { type: 'helferstunden_anlass', id: ANLASS } } },
    });
  });

  it('the office’s form names the person, may approve, and sends a new person or approval only when changed', () => {
    const person = '0123456789abcdef0123456789abcdef';
    const draft = {
      ...emptyDraft('2026-07-01'),
      start: '09:00',
      end: '11:00',
      stunden: '2',
      anlassId: ANLASS,
      typId: '2',
    };
    // The person must be chosen in the office's form, not in one's own.
    expect(localProblems(draft, true)).toEqual(['user']);
    expect(localProblems(draft)).toEqual([]);
    const chosen = { ...draft, userId: person, userText: 'Muster, Max', freigegeben: true };
    const created = createArgs(chosen, ANLASS, true);
    expect(created.relationships.user).toEqual({ data: { type: 'user', id: person } });
    expect(created.attributes.freigegeben).toBe(true);
    expect(commands['helferstunden.create'].safeParse(created).success).toBe(true);
    // One's own form says nothing of a person or an approval.
    const own = createArgs(chosen, ANLASS);
    expect(own.relationships.user).toBeUndefined();
    expect(own.attributes.freigegeben).toBeUndefined();

    const before = draftOf(
      {
        id: '7',
        localState: null,
        userId: person,
        userName: 'Muster, Max',
        von: '2026-07-01T09:00:00+02:00',
        bis: '2026-07-01T11:00:00+02:00',
        stunden: 2,
        freigegeben: false,
        anlass: 'Dienst',
        anlassTyp: 'dienst',
        typ: 'Sanitätsdienst',
        anlassId: ANLASS,
        typId: '2',
        bemerkung: null,
        anfahrtKm: null,
      },
      'de',
    );
    expect(updateArgs('7', before, before, ANLASS, true)).toBeNull();
    const other = 'fedcba9876543210fedcba9876543210';
    expect(
      updateArgs('7', before, { ...before, userId: other, freigegeben: true }, ANLASS, true),
    ).toEqual({
      id: '7',
      attributes: { freigegeben: true },
      relationships: { user: { data: { type: 'user', id: other } } },
    });
  });
});
