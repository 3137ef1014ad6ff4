import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { anyResource } from './common';
import {
  courseDateResource,
  courseTypeResource,
  customFieldResource,
  participationResource,
  uvtResource,
} from '../endpoints/courses';
import { helferstundenResource } from '../endpoints/hours';
import { resourceSchemas } from '../endpoints/index';
import { benachrichtigungenMeta, formularList, steuersatzResource } from '../endpoints/messages';
import { userInfo } from '../endpoints/organisation';
import {
  ausbildungResource,
  ehrungResource,
  ueberpruefungResource,
  userResource,
} from '../endpoints/personnel';
import { countConversions, date, dateTime, flag, integer, number, text, texts } from './tolerance';

/** Parses and returns the data and the number of conversions; fails the test on a rejection. */
function read<S extends z.ZodType>(schema: S, value: unknown) {
  const { value: result, conversions } = countConversions(() => schema.safeParse(value));
  if (!result.success) throw new Error(`rejected: ${result.error.message}`);
  return { data: result.data as z.infer<S>, conversions };
}

function rejects(schema: z.ZodType, value: unknown): string {
  const result = schema.safeParse(value);
  expect(result.success).toBe(false);
  return (
    result.error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ') ??
    ''
  );
}

const user = (attributes: Record<string, unknown>) => ({
  type: 'user',
  id: '9aabc46f91700bf0d97f625b7c5eeacf',
  attributes: { vorname: 'Erika', nachname: 'Muster', status: 'aktiv', ...attributes },
  relationships: { organisation: { data: { type: 'organisation', id: '1' } } },
  links: { self: 'https://example.org/personal/9aabc46f91700bf0d97f625b7c5eeacf' },
});

const hours = (attributes: Record<string, unknown>) => ({
  type: 'helferstunden',
  id: '4',
  attributes: { von: '2026-03-01T08:00:00+01:00', stunden: 2.5, ...attributes },
  relationships: {
    anlass: { data: { type: 'helferstunden_anlass', id: '1' } },
    typ: { data: { type: 'helferstunden_typ', id: '2' } },
    user: { data: { type: 'user', id: 'u1' } },
  },
});

describe('no value: null, "" and absent', () => {
  it('reads every optional member as absent, whatever empty form it has', () => {
    for (const empty of [null, '', undefined]) {
      const { data, conversions } = read(
        userResource,
        user({
          vorname: empty,
          nachname: empty,
          status: empty,
          mitgliednr: empty,
          gebdat: empty,
          leitung: empty,
          gruppen_namen: empty,
          fahrerlaubnis: empty,
          qualifikationen: empty,
          benutzerdefinierte_felder: empty,
        }),
      );
      expect(conversions).toBe(0);
      expect(data.attributes).toEqual({});
    }
  });

  it('reads zero dates and empty date-times as no value, without counting them', () => {
    expect(date('0000-00-00')).toBeUndefined();
    expect(dateTime('0000-00-00 00:00:00')).toBeUndefined();
    expect(dateTime('0000-00-00T00:00:00')).toBeUndefined();
    expect(dateTime('')).toBeUndefined();
    const { data, conversions } = read(
      userResource,
      user({ gebdat: '0000-00-00', austritt_datum: '', mitglied_seit: '2001-04-01' }),
    );
    expect(data.attributes).not.toHaveProperty('gebdat');
    expect(data.attributes).not.toHaveProperty('austritt_datum');
    expect(data.attributes.mitglied_seit).toBe('2001-04-01');
    expect(conversions).toBe(0);
  });

  it('reads nested objects member by member, and an empty one as no value', () => {
    const { data } = read(
      userResource,
      user({
        fahrerlaubnis: {
          klassen: ['B', null, ''],
          beschraenkung: null,
          fuehrerscheinnummer: '',
          fuehrerscheindatum: '0000-00-00',
        },
      }),
    );
    expect(data.attributes.fahrerlaubnis).toEqual({ klassen: ['B'] });
    const none = read(
      userResource,
      user({ fahrerlaubnis: { klassen: [], beschraenkung: '', fuehrerscheindatum: null } }),
    );
    expect(none.data.attributes).not.toHaveProperty('fahrerlaubnis');
  });

  it('drops null items of lists and accepts items without their optional members', () => {
    const { data, conversions } = read(
      userResource,
      user({
        qualifikationen: [
          null,
          { name_kurz: 'SAN', erwerb_datum: null },
          { name_kurz: 'RH', rang: 2, erwerb_datum: '2019-05-01', zentralliste_id: '' },
        ],
        benutzerdefinierte_felder: [null, { id: '1', name: 'Schuhgröße', value: '' }],
      }),
    );
    expect(conversions).toBe(0);
    expect(data.attributes.qualifikationen).toEqual([
      { name_kurz: 'SAN' },
      { name_kurz: 'RH', rang: 2, erwerb_datum: '2019-05-01' },
    ]);
    expect(data.attributes.benutzerdefinierte_felder).toEqual([{ id: '1', name: 'Schuhgröße' }]);
  });

  it('reads an empty list as no value', () => {
    const { data } = read(userResource, user({ gruppen_namen: [], rechte: [null] }));
    expect(data.attributes).not.toHaveProperty('gruppen_namen');
    expect(data.attributes).not.toHaveProperty('rechte');
  });
});

describe('other JSON types: converted where clear, else no value, and counted', () => {
  it('converts numbers to text', () => {
    const { data, conversions } = read(userResource, user({ telpriv: 301234, plz: 10115 }));
    expect(data.attributes.telpriv).toBe('301234');
    expect(data.attributes.plz).toBe('10115');
    expect(conversions).toBe(2);
  });

  it('converts numeric strings to numbers, and nothing else', () => {
    const { data, conversions } = read(
      helferstundenResource,
      hours({ stunden: '2.5', anfahrt_km: '12', freies_zahlenfeld: 'abc' }),
    );
    expect(data.attributes.stunden).toBe(2.5);
    expect(data.attributes.anfahrt_km).toBe(12);
    expect(data.attributes).not.toHaveProperty('freies_zahlenfeld');
    expect(conversions).toBe(3);
    expect(countConversions(() => integer('12')).value).toBe(12);
    expect(countConversions(() => integer(2.5))).toEqual({ value: undefined, conversions: 1 });
    expect(countConversions(() => number(true))).toEqual({ value: undefined, conversions: 1 });
    expect(countConversions(() => number('1e999'))).toEqual({ value: undefined, conversions: 1 });
  });

  it('converts 1/0, "1"/"0" and "true"/"false" to booleans', () => {
    for (const [value, expected] of [
      [1, true],
      [0, false],
      ['1', true],
      ['0', false],
      ['true', true],
      ['false', false],
    ] as const)
      expect(countConversions(() => flag(value))).toEqual({ value: expected, conversions: 1 });
    expect(countConversions(() => flag('ja'))).toEqual({ value: undefined, conversions: 1 });
    expect(countConversions(() => flag(true))).toEqual({ value: true, conversions: 0 });
  });

  it('reads a single value where a list is expected as a one-item list', () => {
    const { data, conversions } = read(
      userResource,
      user({ gruppen_namen: 'Ortsverein :: Sanitätsdienst', rechte: 'helfer' }),
    );
    expect(data.attributes.gruppen_namen).toEqual(['Ortsverein :: Sanitätsdienst']);
    expect(data.attributes.rechte).toEqual(['helfer']);
    expect(conversions).toBe(2);
    expect(countConversions(() => texts([3, 'a']))).toEqual({ value: ['3', 'a'], conversions: 1 });
  });

  it('reads malformed dates as no value, and a date-time where a date is expected as its date', () => {
    expect(countConversions(() => date('1.2.1990'))).toEqual({ value: undefined, conversions: 1 });
    expect(countConversions(() => date('2024-13-01'))).toEqual({
      value: undefined,
      conversions: 1,
    });
    expect(countConversions(() => date('2024-02-03T10:00:00+01:00'))).toEqual({
      value: '2024-02-03',
      conversions: 1,
    });
    expect(countConversions(() => dateTime('gestern'))).toEqual({
      value: undefined,
      conversions: 1,
    });
    expect(countConversions(() => dateTime('2026-03-01 08:00:00'))).toEqual({
      value: '2026-03-01 08:00:00',
      conversions: 0,
    });
  });

  it('reads values of an unreadable type as no value', () => {
    expect(countConversions(() => text({ a: 1 }))).toEqual({ value: undefined, conversions: 1 });
    expect(countConversions(() => text(true))).toEqual({ value: undefined, conversions: 1 });
    const { data, conversions } = read(
      userResource,
      user({ fahrerlaubnis: 'B', qualifikationen: [42, { name_kurz: 'SAN' }] }),
    );
    expect(data.attributes).not.toHaveProperty('fahrerlaubnis');
    expect(data.attributes.qualifikationen).toEqual([{ name_kurz: 'SAN' }]);
    expect(conversions).toBe(2);
  });
});

describe('unknown attributes', () => {
  it('keeps them as sent, only their empty forms dropped, and fails nothing', () => {
    const { data, conversions } = read(
      userResource,
      user({
        x_intern_flag: false,
        letzte_aenderung_von: '',
        zusatz: { kept: [1, null] },
        leer: null,
      }),
    );
    expect(conversions).toBe(0);
    expect(data.attributes.x_intern_flag).toBe(false);
    expect(data.attributes.zusatz).toEqual({ kept: [1, null] });
    expect(data.attributes).not.toHaveProperty('letzte_aenderung_von');
    expect(data.attributes).not.toHaveProperty('leer');
    expect(data.links).toEqual({
      self: 'https://example.org/personal/9aabc46f91700bf0d97f625b7c5eeacf',
    });
  });

  it('gives the same parsed resource for answers that mean the same', () => {
    const uniform = read(
      userResource,
      user({ telpriv: '301234', mitgliednr: '', gruppen_namen: ['X'], qualifikationen: [] }),
    ).data;
    const variant = read(
      userResource,
      user({ telpriv: 301234, mitgliednr: null, gruppen_namen: 'X' }),
    ).data;
    expect(JSON.stringify(variant)).toBe(JSON.stringify(uniform));
  });
});

describe('user: qualifications and embedded trainings', () => {
  it('reads qualifications whatever their members', () => {
    const { data } = read(
      userResource,
      user({
        qualifikationen: [
          {
            position: 1,
            liste_id: 3,
            liste: 'Sanitätsdienst',
            rang: '2',
            name: 'Sanitäter',
            name_kurz: 'SAN',
            zentralliste_id: 7,
            zentralliste_rang: 2,
            zentralliste_name_kurz: 'SAN',
            erwerb_datum: null,
          },
        ],
      }),
    );
    expect(data.attributes.qualifikationen?.[0]).toMatchObject({ rang: 2, position: 1 });
    expect(data.attributes.qualifikationen?.[0]).not.toHaveProperty('erwerb_datum');
  });

  it('keeps an empty embedded list (none) apart from a missing one (not embedded)', () => {
    expect(read(userResource, user({ ausbildungen: [] })).data.attributes.ausbildungen).toEqual([]);
    for (const missing of [null, '', undefined])
      expect(
        read(userResource, user({ ausbildungen: missing })).data.attributes,
      ).not.toHaveProperty('ausbildungen');
  });

  it('reads embedded trainings; one without an id is dropped and counted', () => {
    const { data, conversions } = read(
      userResource,
      user({
        ausbildungen: [
          { id: '3', bezeichnung: 'Sanitäter', datum: '2020-01-01', gueltig_bis: '' },
          { id: 4, bezeichnung: 'Erste Hilfe', lehrgangsnummer: null, updated_at: '' },
          { bezeichnung: 'ohne Id' },
          null,
        ],
      }),
    );
    expect(data.attributes.ausbildungen).toEqual([
      { id: '3', bezeichnung: 'Sanitäter', datum: '2020-01-01' },
      { id: '4', bezeichnung: 'Erste Hilfe' },
    ]);
    expect(conversions).toBe(2);
  });
});

describe('checks, honours, trainings, course types, UVTs and tax rates', () => {
  it('read pruefergebnis tolerantly', () => {
    const check = (pruefergebnis: unknown) => ({
      type: 'ueberpruefung',
      id: '8',
      attributes: {
        bezeichnung: 'G26.3',
        pruefergebnis,
        letzte_pruefung: '',
        naechste_pruefung: null,
      },
    });
    expect(read(ueberpruefungResource, check(null)).data.attributes).toEqual({
      bezeichnung: 'G26.3',
    });
    expect(
      read(ueberpruefungResource, check({ bestanden: null, einschraenkungen: '' })).data.attributes,
    ).toEqual({ bezeichnung: 'G26.3' });
    const converted = read(
      ueberpruefungResource,
      check({ bestanden: '1', einschraenkungen: null }),
    );
    expect(converted.data.attributes.pruefergebnis).toEqual({ bestanden: true });
    expect(converted.conversions).toBe(1);
  });

  it('recognise the open types by the endpoint and carry the canonical type', () => {
    const cases = [
      [ausbildungResource, 'ausbildung', 'personal_ausbildung'],
      [ueberpruefungResource, 'ueberpruefung', 'Ueberpruefung'],
      [ehrungResource, 'ehrung', 'ehrungen'],
      [courseTypeResource, 'course_type', 'CourseType'],
      [uvtResource, 'uvt', 'UVT'],
      [steuersatzResource, 'steuersatz', 'tax_rate'],
    ] as const;
    for (const [schema, canonical, spelling] of cases) {
      const { data } = read(schema, { type: spelling, id: '1', attributes: {} });
      expect(data.type).toBe(canonical);
      rejects(schema, { type: '', id: '1', attributes: {} });
    }
  });

  it('read honours’ years and tax rates from numeric strings', () => {
    expect(
      read(ehrungResource, { type: 'ehrung', id: '1', attributes: { jahre: '25', stufe: '' } }).data
        .attributes,
    ).toEqual({ jahre: 25 });
    expect(
      read(steuersatzResource, { type: 'steuersatz', id: '1', attributes: { satz: '19.0' } }).data
        .attributes.satz,
    ).toBe(19);
  });

  it('keep the other types strict about their type', () => {
    rejects(userResource, { ...user({}), type: 'person' });
    rejects(helferstundenResource, { ...hours({}), type: 'stunden' });
  });
});

describe('hours, course dates, participations and custom fields', () => {
  it('hours: numbers and date-times', () => {
    const { data, conversions } = read(
      helferstundenResource,
      hours({ bis: null, stunden: '3', anfahrt_km: '', freies_zahlenfeld: null, freigegeben: 0 }),
    );
    expect(data.attributes).toEqual({
      von: '2026-03-01T08:00:00+01:00',
      stunden: 3,
      freigegeben: false,
    });
    expect(conversions).toBe(2);
    const open = read(helferstundenResource, hours({ bis: '0000-00-00 00:00:00', stunden: null }));
    expect(open.data.attributes).toEqual({ von: '2026-03-01T08:00:00+01:00' });
  });

  it('course dates: `to` may be missing', () => {
    const { data } = read(courseDateResource, {
      type: 'course_date',
      id: '5',
      attributes: { from: '2026-05-01T08:00:00+02:00', to: '' },
    });
    expect(data.attributes).toEqual({ from: '2026-05-01T08:00:00+02:00' });
  });

  it('participations: names, flags and a birthday', () => {
    const { data, conversions } = read(participationResource, {
      type: 'participation',
      id: '6',
      attributes: {
        first_name: '',
        last_name: 'Muster',
        status: 'registered',
        birthday: '0000-00-00',
        phone: 3012345,
        attended: 'false',
        paid: null,
      },
      relationships: { course: { data: { type: 'course', id: 9 } }, company: { data: null } },
    });
    expect(data.attributes).toEqual({
      last_name: 'Muster',
      status: 'registered',
      phone: '3012345',
      attended: false,
    });
    expect(data.relationships?.course?.data).toEqual({ type: 'course', id: '9' });
    expect(conversions).toBe(3);
  });

  it('custom fields: options as a list, value as text', () => {
    const { data } = read(customFieldResource, {
      type: 'customfield',
      id: '7',
      attributes: {
        name: 'Größe',
        field_type: 'select',
        options: 'M',
        value: 42,
        required: 1,
        position: '2',
      },
    });
    expect(data.attributes).toEqual({
      name: 'Größe',
      field_type: 'select',
      options: ['M'],
      value: '42',
      required: true,
      position: 2,
    });
  });
});

describe('unreadable records', () => {
  it('reject an id that is neither a non-empty string nor a number, and convert a number id', () => {
    for (const id of ['', null, undefined, { id: '1' }, true])
      expect(rejects(userResource, { ...user({}), id })).toMatch(/^id:/);
    const numeric = read(helferstundenResource, { ...hours({}), id: 17 });
    expect(numeric.data.id).toBe('17');
    expect(numeric.conversions).toBe(1);
  });

  it('reject attributes that are not an object, and read missing ones as none', () => {
    for (const attributes of [null, 'x', ['a']])
      expect(rejects(userResource, { ...user({}), attributes })).toMatch(/^attributes:/);
    expect(read(userResource, { type: 'user', id: 'u' }).data.attributes).toEqual({});
  });

  it('reject malformed relationships', () => {
    for (const relationships of [
      'x',
      { user: 'x' },
      { user: { data: { type: 'user' } } },
      { user: { data: { type: '', id: '1' } } },
      { user: { data: [{ type: 'user', id: '1' }, null] } },
    ])
      expect(rejects(helferstundenResource, { ...hours({}), relationships })).toMatch(
        /^relationships:/,
      );
  });

  it('reject an hour entry without a readable von and a course date without from', () => {
    for (const von of [null, '', undefined, 'gestern', '0000-00-00 00:00:00'])
      expect(rejects(helferstundenResource, hours({ von }))).toMatch(/^attributes\.von:/);
    expect(
      rejects(courseDateResource, {
        type: 'course_date',
        id: '1',
        attributes: { to: '2026-05-01T16:00:00+02:00' },
      }),
    ).toMatch(/^attributes\.from:/);
  });

  it('reject what is not a resource object', () => {
    for (const value of [null, 'x', 3, []]) rejects(userResource, value);
    rejects(anyResource, { type: 'thing' });
  });

  it('do not reject a person without names', () => {
    const { data } = read(userResource, user({ vorname: null, nachname: '' }));
    expect(data.attributes).not.toHaveProperty('vorname');
    expect(data.attributes).not.toHaveProperty('nachname');
  });
});

describe('countConversions', () => {
  it('counts per call, nested calls included in the outer one, and nothing leaks', () => {
    text(5); // outside any count: not counted anywhere
    const outer = countConversions(() => {
      text(1);
      const inner = countConversions(() => {
        text(2);
        text(3);
        return 'inner';
      });
      expect(inner).toEqual({ value: 'inner', conversions: 2 });
      return 'outer';
    });
    expect(outer).toEqual({ value: 'outer', conversions: 3 });
    expect(() =>
      countConversions(() => {
        text(1);
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(countConversions(() => text('a'))).toEqual({ value: 'a', conversions: 0 });
  });

  it('counts the conversions of a rejected record too', () => {
    const { value, conversions } = countConversions(() =>
      helferstundenResource.safeParse({ ...hours({ von: null }), id: 17 }),
    );
    expect(value.success).toBe(false);
    expect(conversions).toBe(1);
  });
});

describe('other documents', () => {
  it('user-info requires only sub', () => {
    expect(userInfo.parse({ sub: 'u1', email: '', email_verified: 'true' })).toEqual({
      sub: 'u1',
      email_verified: true,
    });
    expect(userInfo.safeParse({ email: 'a@b' }).success).toBe(false);
  });

  it('forms: null entries dropped, unreadable ones dropped and counted', () => {
    const { value, conversions } = countConversions(() =>
      formularList.parse([{ titel: 'A', aktion: { typ: 'link' } }, null, 'x', { titel: '' }]),
    );
    expect(value).toEqual([{ titel: 'A', aktion: { typ: 'link' } }, {}]);
    expect(conversions).toBe(1);
    expect(formularList.safeParse({}).success).toBe(false);
  });

  it('notifications meta reads size tolerantly', () => {
    expect(benachrichtigungenMeta.parse({ size: '3' })).toEqual({ size: 3 });
    expect(benachrichtigungenMeta.parse({ size: -1 })).toEqual({});
  });

  it('every type has a schema that reads it', () => {
    for (const [type, schema] of Object.entries(resourceSchemas))
      expect(
        read(schema, {
          type,
          id: '1',
          attributes: { von: '2026-01-01T00:00:00Z', from: '2026-01-01T00:00:00Z' },
        }).data.type,
      ).toBe(type);
  });
});
