import { describe, expect, it } from 'vitest';
import { courseRow, embeddedAusbildungen, flag, number, text, userRow } from './rows';

describe('row mapping', () => {
  it('stores the service’s empty values as absent', () => {
    expect(text('')).toBeNull();
    expect(text('0000-00-00')).toBeNull();
    expect(text('0000-00-00 00:00:00')).toBeNull();
    expect(text('2026-01-02')).toBe('2026-01-02');
    expect(number('')).toBeNull();
    expect(number('3.5')).toBe(3.5);
    expect(number('abc')).toBeNull();
    expect(flag(true)).toBe(1);
    expect(flag(false)).toBe(0);
    expect(flag(null)).toBeNull();
  });

  it('keeps the whole resource as base and derives the sort key', () => {
    const row = userRow(
      {
        type: 'user',
        id: 'abc',
        attributes: {
          vorname: 'Jürgen',
          nachname: 'Özdemir',
          mitgliednr: '',
          austritt_datum: '0000-00-00',
        },
      },
      'now',
    );
    expect(row.sort_name).toBe('özdemir jürgen');
    expect(row.mitgliednr).toBeNull();
    expect(JSON.parse(row.base).attributes.austritt_datum).toBe('0000-00-00');
  });

  it('turns the trainings embedded in a user into training records', () => {
    const trainings = embeddedAusbildungen({
      type: 'user',
      id: 'u1',
      attributes: {
        ausbildungen: [{ id: 7, bezeichnung: 'Erste Hilfe', datum: '2024-01-01' }, 'garbage'],
      },
    });
    expect(trainings).toEqual([
      {
        type: 'ausbildung',
        id: '7',
        attributes: { bezeichnung: 'Erste Hilfe', datum: '2024-01-01' },
        relationships: { user: { data: { type: 'user', id: 'u1' } } },
      },
    ]);
  });

  it('takes a course’s first and last date from its dates', () => {
    const dates = [
      {
        type: 'course_date',
        id: '2',
        attributes: { from: '2026-05-02T08:00:00+02:00', to: '2026-05-02T16:00:00+02:00' },
      },
      {
        type: 'course_date',
        id: '1',
        attributes: { from: '2026-05-01T08:00:00+02:00', to: '2026-05-01T16:00:00+02:00' },
      },
    ];
    const row = courseRow({ type: 'course', id: '9', attributes: { title: 'EH' } }, dates, 'now');
    expect(row.first_date).toBe('2026-05-01T08:00:00+02:00');
    expect(row.last_date).toBe('2026-05-02T16:00:00+02:00');
  });
});
