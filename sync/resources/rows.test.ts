import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  courseDateResource,
  customFieldResource,
  participationResource,
} from '../api/endpoints/courses';
import { helferstundenResource } from '../api/endpoints/hours';
import { steuersatzResource } from '../api/endpoints/messages';
import { ueberpruefungResource, userResource } from '../api/endpoints/personnel';
import {
  ausbildung,
  course,
  courseDate,
  customfield,
  embeddedAusbildungen,
  flag,
  helferstunden,
  number,
  participation,
  qualifikationRows,
  type ServiceResource,
  steuersatz,
  text,
  ueberpruefung,
  user,
} from '.';

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

  it('keeps the whole resource without its empty members as base and derives the sort key', () => {
    const row = user.row(
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
    expect(JSON.parse(row.base).attributes).toEqual({ vorname: 'Jürgen', nachname: 'Özdemir' });
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
    const row = course.row({ type: 'course', id: '9', attributes: { title: 'EH' } }, dates, 'now');
    expect(row.first_date).toBe('2026-05-01T08:00:00+02:00');
    expect(row.last_date).toBe('2026-05-02T16:00:00+02:00');
  });
});

describe('rows from tolerant variants', () => {
  /** Both documents read by the schema, then mapped: the rows (base included) must be equal. */
  function sameRows<S extends z.ZodType, R>(
    schema: S,
    uniform: unknown,
    variant: unknown,
    toRows: (r: ServiceResource) => R,
  ) {
    const a = toRows(schema.parse(uniform) as ServiceResource);
    const b = toRows(schema.parse(variant) as ServiceResource);
    expect(b).toEqual(a);
    return a;
  }

  it('users, their qualifications and embedded trainings', () => {
    const uniform = {
      type: 'user',
      id: 'u1',
      attributes: {
        vorname: 'Erika',
        nachname: 'Muster',
        status: 'aktiv',
        telpriv: '301234',
        mitgliednr: '',
        austritt_datum: '',
        gebdat: '1980-02-03',
        gruppen_namen: ['X'],
        leitung: false,
        fahrerlaubnis: { klassen: ['B'], beschraenkung: '', fuehrerscheindatum: '' },
        benutzerdefinierte_felder: [{ id: '1', name: 'Größe', value: '' }],
        qualifikationen: [{ position: 1, name_kurz: 'SAN', rang: 2, erwerb_datum: '' }],
        ausbildungen: [{ id: '3', bezeichnung: 'Sanitäter', datum: '2020-01-01', gueltig_bis: '' }],
      },
      relationships: { organisation: { data: { type: 'organisation', id: '1' } } },
    };
    const variant = {
      ...uniform,
      attributes: {
        vorname: 'Erika',
        nachname: 'Muster',
        status: 'aktiv',
        telpriv: 301234,
        mitgliednr: null,
        austritt_datum: '0000-00-00',
        gebdat: '1980-02-03',
        gruppen_namen: 'X',
        leitung: 0,
        fahrerlaubnis: { klassen: 'B', beschraenkung: null },
        benutzerdefinierte_felder: [{ id: '1', name: 'Größe' }, null],
        qualifikationen: [null, { position: 1, name_kurz: 'SAN', rang: '2', erwerb_datum: null }],
        ausbildungen: [{ id: 3, bezeichnung: 'Sanitäter', datum: '2020-01-01', gueltig_bis: null }],
      },
    };
    const rows = sameRows(userResource, uniform, variant, (u) => ({
      user: user.row(u, 'now'),
      qualifikationen: qualifikationRows(u),
      ausbildungen: embeddedAusbildungen(u).map((a) => ausbildung.row(a, u.id, 'now')),
    }));
    expect(rows.user.mitgliednr).toBeNull();
    expect(rows.qualifikationen).toHaveLength(1);
    expect(rows.ausbildungen[0]?.id).toBe('3');
  });

  it('hours', () => {
    const uniform = {
      type: 'helferstunden',
      id: '4',
      attributes: {
        von: '2026-03-01T08:00:00+01:00',
        bis: null,
        stunden: 2.5,
        anfahrt_km: null,
        bemerkung: '',
      },
      relationships: { user: { data: { type: 'user', id: 'u1' } } },
    };
    const variant = {
      ...uniform,
      attributes: {
        von: '2026-03-01T08:00:00+01:00',
        stunden: '2.5',
        anfahrt_km: '',
        bemerkung: null,
        x_intern_flag: null,
      },
    };
    sameRows(helferstundenResource, uniform, variant, (r) => helferstunden.row(r, 'now'));
  });

  it('checks, course dates, participations, custom fields and tax rates', () => {
    sameRows(
      ueberpruefungResource,
      {
        type: 'ueberpruefung',
        id: '8',
        attributes: {
          bezeichnung: 'G26',
          pruefergebnis: { bestanden: true, einschraenkungen: '' },
          letzte_pruefung: '',
        },
      },
      {
        type: 'Ueberpruefung',
        id: '8',
        attributes: {
          bezeichnung: 'G26',
          pruefergebnis: { bestanden: '1' },
          letzte_pruefung: '0000-00-00',
        },
      },
      (r) => ueberpruefung.row(r, 'u1', 'now'),
    );
    sameRows(
      courseDateResource,
      {
        type: 'course_date',
        id: '1',
        attributes: { from: '2026-05-01T08:00:00+02:00', to: '2026-05-01T16:00:00+02:00' },
      },
      {
        type: 'course_date',
        id: 1,
        attributes: { from: '2026-05-01T08:00:00+02:00', to: '2026-05-01T16:00:00+02:00' },
      },
      (r) => courseDate.row(r, '9', 'now'),
    );
    sameRows(
      participationResource,
      {
        type: 'participation',
        id: '6',
        attributes: {
          first_name: 'A',
          last_name: 'B',
          status: 'registered',
          attended: false,
          birthday: '',
          phone: '3012345',
        },
      },
      {
        type: 'participation',
        id: '6',
        attributes: {
          first_name: 'A',
          last_name: 'B',
          status: 'registered',
          attended: 'false',
          birthday: null,
          phone: 3012345,
        },
      },
      (r) => participation.row(r, '9', 'now'),
    );
    sameRows(
      customFieldResource,
      {
        type: 'customfield',
        id: '7',
        attributes: { name: 'Größe', field_type: 'select', options: ['M'], value: '', position: 2 },
      },
      {
        type: 'customfield',
        id: '7',
        attributes: { name: 'Größe', field_type: 'select', options: 'M', position: '2' },
      },
      (r) => customfield.row(r, '9', 'now'),
    );
    sameRows(
      steuersatzResource,
      {
        type: 'steuersatz',
        id: '1',
        attributes: { bezeichnung: 'voll', satz: 19, gueltig_ab: '' },
      },
      { type: 'tax_rate', id: '1', attributes: { bezeichnung: 'voll', satz: '19' } },
      (r) => steuersatz.row(r, 'now'),
    );
  });
});
