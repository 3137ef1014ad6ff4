// The commands' schemas: each accepts a valid example and refuses what the service would refuse,
// with messages that name the member; WRITE_COMMANDS builds the service's paths.
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  commands,
  isDate,
  isDateTime,
  isLocalId,
  WRITE_COMMANDS,
  type CommandArgs,
  type CommandName,
  type CommandResults,
  type CourseDetail,
  type OutboxEntry,
  type ParticipationItem,
  type ParsedCommandArgs,
  type WriteCommandName,
  type WriteAnswer,
  type WriteReceipt,
} from '../contract';

const LOCAL = 'local-0b0f6f5e-8c3a-4d2e-9a55-3c1e2f4b6a70';
const USER = '0123456789abcdef0123456789abcdef';
const NOTIFICATION = `17-${USER}`;
const FROM = '2026-03-01T08:00:00+01:00';
const TO = '2026-03-01T16:00:00+01:00';
const ref = <T extends string>(type: T, id: string) => ({ data: { type, id } });

/** One valid example per command (the mapped type makes a missing one a type error). */
const valid: { [N in CommandName]: CommandArgs<N> } = {
  'user.create': {
    attributes: {
      vorname: 'Anna',
      nachname: 'Berg',
      gebdat: '',
      email: 'anna@example.org',
      status: 'aktiv',
      rechte: ['helfer'],
      fahrerlaubnis: { klassen: ['B'] },
      qualifikationen: [
        { position: 1, rang: 2, erwerb_datum: '2024-05-01' },
        { zentralliste_id: 3, zentralliste_name_kurz: null },
      ],
    },
    relationships: { organisation: ref('organisation', '1') },
  },
  'user.update': {
    id: USER,
    attributes: { ort: 'Kassel', qualifikationen: [{ position: 2, name_kurz: 'SanH' }] },
  },
  'user.upsert': {
    identifierName: 'mitgliednr',
    identifierValue: 'M-17/2',
    attributes: { vorname: 'Anna', nachname: 'Berg' },
  },
  'ausbildung.delete': { userId: USER, id: '42' },
  'kalender.create': { attributes: { name: 'Dienste', farbe: '#1a2B3c' } },
  'kalender.delete': { id: LOCAL },
  'helferstunden.create': {
    attributes: { von: FROM, bis: null, stunden: 2.5, anfahrt_km: null, freigegeben: false },
    relationships: {
      anlass: ref('helferstunden_anlass', LOCAL),
      typ: ref('helferstunden_typ', '3'),
      user: ref('user', USER),
    },
  },
  'helferstunden.update': { id: '17', attributes: { bis: TO, anfahrt_km: 12.5 } },
  'helferstunden.delete': { id: '17' },
  'helferstunden_anlass.create': {
    attributes: { typ: 'sonstiges', beschreibung: 'Sanitätsdienst Stadtfest', datum: '2026-03-01' },
  },
  'helferstunden_anlass.update': { id: LOCAL, attributes: { datum: '2026-03-02' } },
  'benachrichtigung.update': { id: NOTIFICATION, attributes: { gelesen: true } },
  'benachrichtigung.delete': { id: NOTIFICATION },
  'course.create': {
    attributes: { title: 'Erste Hilfe', max_participants: 12, price: 45 },
    relationships: {
      course_type: ref('course_type', '1'),
      dates: { data: [{ type: 'course_date', id: 'new-1' }] },
      location: ref('address', 'new-a'),
      client: { data: null },
      trainers: { data: [{ type: 'user', id: LOCAL }] },
    },
    included: [
      { type: 'course_date', id: 'new-1', attributes: { from: FROM, to: TO } },
      {
        type: 'address',
        id: 'new-a',
        attributes: { city: 'Kassel', geo: { lat: 51.3, lng: 9.5 } },
      },
    ],
  },
  'participation.create': {
    courseId: LOCAL,
    attributes: { first_name: 'Ben', last_name: 'Cho', birthday: '', status: 'registered' },
    relationships: { company: ref('company', 'new-c'), uvt: { data: null } },
    included: [{ type: 'company', id: 'new-c', attributes: { name: 'Bau GmbH' } }],
  },
  'participation.update': { courseId: '5', id: '9', attributes: { attended: true } },
  'participation.cancel': { courseId: '5', id: LOCAL, attributes: { reason: 'krank' } },
  'customfield.create': {
    courseId: '5',
    attributes: { name: 'Größe', field_type: 'select', options: ['S', 'M'], value: 'M' },
  },
  'customfield.update': { courseId: '5', id: '2', attributes: { required: true } },
  'customfield.delete': { courseId: LOCAL, id: LOCAL },
  'outbox.list': { states: ['parked', 'unknown'] },
  'outbox.retry': { id: 3 },
  'outbox.edit': { id: 3, arguments: { id: '17', attributes: { stunden: 3 } } },
  'outbox.discard': { id: 3 },
  'conflicts.list': {},
  'conflicts.resolve': { id: 1, take: 'theirs' },
  'sync.refresh': { kind: 'course', id: '42' },
};

function parse(name: CommandName, args: unknown) {
  return commands[name].safeParse(args);
}

/** Deep copy with changes, so each refusal starts from a valid example. */
function variant<N extends CommandName>(
  name: N,
  change: (args: Record<string, any>) => void, // eslint-disable-line @typescript-eslint/no-explicit-any
): unknown {
  const copy = structuredClone(valid[name]) as Record<string, unknown>;
  change(copy);
  return copy;
}

describe('every command accepts its valid example', () => {
  it.each(Object.keys(commands) as CommandName[])('%s', (name) => {
    const result = parse(name, valid[name]);
    expect(result.error?.issues ?? []).toEqual([]);
  });

  it('the map has the 20 writes, the 6 outbox commands and sync.refresh', () => {
    expect(Object.keys(commands)).toHaveLength(27);
    expect(Object.keys(WRITE_COMMANDS).sort()).toEqual(
      Object.keys(commands)
        .filter((name) => !/^(outbox|conflicts|sync)\./.test(name))
        .sort(),
    );
  });
});

interface Refusal {
  name: CommandName;
  why: string;
  args: unknown;
  /** The issue expected: its dotted path and a piece of its message. */
  path: string;
  message: string | RegExp;
}

const refusals: Refusal[] = [
  // required values
  ...(['vorname', 'nachname'] as const).map((member): Refusal => ({
    name: 'user.create',
    why: `missing ${member}`,
    args: variant('user.create', (a) => delete a.attributes[member]),
    path: `attributes.${member}`,
    message: `"${member}" is required`,
  })),
  {
    name: 'kalender.create',
    why: 'missing name',
    args: { attributes: { farbe: '#ffffff' } },
    path: 'attributes.name',
    message: '"name" is required',
  },
  ...(['von', 'stunden'] as const).map((member): Refusal => ({
    name: 'helferstunden.create',
    why: `missing ${member}`,
    args: variant('helferstunden.create', (a) => delete a.attributes[member]),
    path: `attributes.${member}`,
    message: `"${member}" is required`,
  })),
  ...(['anlass', 'typ'] as const).map((member): Refusal => ({
    name: 'helferstunden.create',
    why: `missing relationship ${member}`,
    args: variant('helferstunden.create', (a) => delete a.relationships[member]),
    path: `relationships.${member}`,
    message: `"${member}" is required`,
  })),
  ...(['typ', 'beschreibung'] as const).map((member): Refusal => ({
    name: 'helferstunden_anlass.create',
    why: `missing ${member}`,
    args: variant('helferstunden_anlass.create', (a) => delete a.attributes[member]),
    path: `attributes.${member}`,
    message: `"${member}" is required`,
  })),
  {
    name: 'course.create',
    why: 'missing course_type',
    args: variant('course.create', (a) => delete a.relationships.course_type),
    path: 'relationships.course_type',
    message: '"course_type" is required',
  },
  ...(['first_name', 'last_name'] as const).map((member): Refusal => ({
    name: 'participation.create',
    why: `missing ${member}`,
    args: variant('participation.create', (a) => delete a.attributes[member]),
    path: `attributes.${member}`,
    message: `"${member}" is required`,
  })),
  ...(['name', 'field_type'] as const).map((member): Refusal => ({
    name: 'customfield.create',
    why: `missing ${member}`,
    args: variant('customfield.create', (a) => delete a.attributes[member]),
    path: `attributes.${member}`,
    message: `"${member}" is required`,
  })),
  {
    name: 'benachrichtigung.update',
    why: 'missing gelesen',
    args: { id: NOTIFICATION, attributes: {} },
    path: 'attributes.gelesen',
    message: '"gelesen" is required',
  },
  {
    name: 'user.create',
    why: 'a blank vorname',
    args: variant('user.create', (a) => (a.attributes.vorname = '  ')),
    path: 'attributes.vorname',
    message: 'must not be empty',
  },
  // updates change something
  ...(
    [
      ['user.update', { id: USER, attributes: {} }],
      ['user.upsert', { identifierName: 'user_id', identifierValue: USER, attributes: {} }],
      ['helferstunden.update', { id: '17' }],
      ['helferstunden_anlass.update', { id: '3', attributes: {} }],
      ['participation.update', { courseId: '5', id: '9', attributes: {}, relationships: {} }],
      ['customfield.update', { courseId: '5', id: '2', attributes: {} }],
    ] as const
  ).map(([name, args]): Refusal => ({
    name,
    why: 'nothing to change',
    args,
    path: 'attributes',
    message: 'nothing to change',
  })),
  // unknown attributes and relationships, named
  ...(
    [
      ['user.create', 'user'],
      ['user.update', 'user'],
      ['kalender.create', 'kalender'],
      ['helferstunden.create', 'helferstunden'],
      ['helferstunden_anlass.create', 'helferstunden_anlass'],
      ['benachrichtigung.update', 'benachrichtigung'],
      ['course.create', 'course'],
      ['participation.create', 'participation'],
      ['participation.cancel', 'cancellation'],
      ['customfield.create', 'customfield'],
      ['customfield.update', 'customfield'],
    ] as const
  ).map(([name, type]): Refusal => ({
    name,
    why: 'an unknown attribute',
    args: variant(name, (a) => (a.attributes = { ...a.attributes, foo: 1 })),
    path: 'attributes.foo',
    message: `unknown attribute "foo" of ${type}`,
  })),
  {
    name: 'helferstunden.update',
    why: 'an unknown relationship',
    args: { id: '17', relationships: { kurs: ref('course', '1') } },
    path: 'relationships.kurs',
    message: 'unknown relationship "kurs" of helferstunden',
  },
  {
    name: 'course.create',
    why: 'an unknown attribute of an included address',
    args: variant('course.create', (a) => (a.included[1].attributes.town = 'Kassel')),
    path: 'included.1.attributes.town',
    message: 'unknown attribute "town" of address',
  },
  // read-only attributes, named
  ...(
    [
      ['user.create', 'name', 'the service derives it'],
      ['user.update', 'gesperrt', 'the service derives it'],
      ['user.upsert', 'ausbildungen', 'it has operations of its own'],
      ['kalender.create', 'ical_url', 'the service sets it'],
      ['helferstunden.create', 'created_at', 'the service sets it'],
      ['helferstunden.update', 'updated_at', 'the service sets it'],
      ['helferstunden_anlass.update', 'updated_at', 'the service sets it'],
      ['benachrichtigung.update', 'titel', 'the service sets it'],
      ['course.create', 'number_of_participants', 'the service derives it'],
      ['course.create', 'status', 'the service sets it'],
      ['course.create', 'course_number', 'the service sets it'],
      ['participation.update', 'created_at', 'the service sets it'],
      ['participation.cancel', 'cancelled_at', 'the service sets it'],
    ] as const
  ).map(([name, member, why]): Refusal => ({
    name,
    why: `read-only ${member}`,
    args: variant(name, (a) => (a.attributes = { ...a.attributes, [member]: 'x' })),
    path: `attributes.${member}`,
    message: `"${member}" is read-only (${why})`,
  })),
  {
    name: 'participation.update',
    why: 'the read-only relationship course',
    args: { courseId: '5', id: '9', relationships: { course: ref('course', '6') } },
    path: 'relationships.course',
    message: '"course" is read-only (the path names it)',
  },
  // qualifications: exactly one pair
  ...(
    [
      ['two pairs', { position: 1, rang: 2, zentralliste_id: 3, zentralliste_rang: 1 }],
      ['half a pair', { position: 1, erwerb_datum: '2024-01-01' }],
      ['no pair', { erwerb_datum: '2024-01-01' }],
      ['a mixed pair', { position: 1, zentralliste_rang: 2 }],
      ['both seconds', { position: 1, rang: 2, name_kurz: 'SanH' }],
    ] as const
  ).map(([why, edit]): Refusal => ({
    name: 'user.update',
    why: `qualification: ${why}`,
    args: { id: USER, attributes: { qualifikationen: [edit] } },
    path: 'attributes.qualifikationen.0',
    message: 'exactly one pair',
  })),
  {
    name: 'user.update',
    why: 'qualification: a null list',
    args: { id: USER, attributes: { qualifikationen: [{ position: null, rang: 2 }] } },
    path: 'attributes.qualifikationen.0.position',
    message: /expected number/,
  },
  // ids
  ...(
    [
      ['user.update', 'id', '../x'],
      ['user.update', 'id', USER.toUpperCase()],
      ['user.update', 'id', 'local-0b0f6f5e-8c3a-1d2e-9a55-3c1e2f4b6a70'],
      ['ausbildung.delete', 'id', LOCAL],
      ['ausbildung.delete', 'userId', '17/..'],
      ['kalender.delete', 'id', '../x'],
      ['kalender.delete', 'id', ''],
      ['helferstunden.delete', 'id', '17?x=1'],
      ['helferstunden_anlass.update', 'id', '%2e%2e'],
      ['benachrichtigung.delete', 'id', '17'],
      ['benachrichtigung.delete', 'id', LOCAL],
      ['participation.cancel', 'courseId', '../x'],
      ['customfield.delete', 'id', ' 2'],
      ['customfield.delete', 'courseId', 'local-x'],
    ] as const
  ).map(([name, member, id]): Refusal => ({
    name,
    why: `the ${member} ${JSON.stringify(id)}`,
    args: variant(name, (a) => (a[member] = id)),
    path: member,
    message: 'expected ',
  })),
  {
    name: 'user.upsert',
    why: 'a user_id that is no user id',
    args: { identifierName: 'user_id', identifierValue: '../x', attributes: { ort: 'Kassel' } },
    path: 'identifierValue',
    message: 'expected a user id',
  },
  {
    name: 'helferstunden.create',
    why: 'a typ id that is temporary (types are the service’s)',
    args: variant('helferstunden.create', (a) => (a.relationships.typ.data.id = LOCAL)),
    path: 'relationships.typ.data.id',
    message: 'expected an id of digits',
  },
  {
    name: 'helferstunden.create',
    why: 'a relationship of the wrong type',
    args: variant('helferstunden.create', (a) => (a.relationships.typ.data.type = 'typ')),
    path: 'relationships.typ.data.type',
    message: /expected "helferstunden_typ"/,
  },
  // course: included items and relationships name each other
  {
    name: 'course.create',
    why: 'an included course_date no relationship names',
    args: variant('course.create', (a) =>
      a.included.push({ type: 'course_date', id: 'new-2', attributes: { from: FROM, to: TO } }),
    ),
    path: 'included.2',
    message: 'included course_date "new-2" is not named by a relationship',
  },
  {
    name: 'course.create',
    why: 'a date that is not included',
    args: variant('course.create', (a) =>
      a.relationships.dates.data.push({ type: 'course_date', id: 'new-9' }),
    ),
    path: 'relationships.dates.data.1',
    message: 'course_date "new-9" is not in included',
  },
  {
    name: 'course.create',
    why: 'a new location that is not included',
    args: variant('course.create', (a) => a.included.pop()),
    path: 'relationships.location.data',
    message: 'address "new-a" is not in included',
  },
  {
    name: 'course.create',
    why: 'a date included twice',
    args: variant('course.create', (a) => a.included.push(structuredClone(a.included[0]))),
    path: 'included.2.id',
    message: 'is included twice',
  },
  {
    name: 'course.create',
    why: 'no dates',
    args: variant('course.create', (a) => {
      a.relationships.dates.data = [];
      a.included.shift();
    }),
    path: 'relationships.dates.data',
    message: 'at least one date',
  },
  {
    name: 'course.create',
    why: 'a date that ends before it begins',
    args: variant('course.create', (a) => (a.included[0].attributes.to = FROM)),
    path: 'included.0.attributes.to',
    message: 'must end after it begins',
  },
  {
    name: 'course.create',
    why: 'an included date with a service id',
    args: variant('course.create', (a) => (a.included[0].id = '7')),
    path: 'included.0.id',
    message: 'new-',
  },
  // participation: at most one new company, named both ways
  {
    name: 'participation.create',
    why: 'two new companies',
    args: variant('participation.create', (a) =>
      a.included.push({ type: 'company', id: 'new-d', attributes: { name: 'Zweite GmbH' } }),
    ),
    path: 'included.1',
    message: 'at most one new company',
  },
  {
    name: 'participation.update',
    why: 'a new company no relationship names',
    args: {
      courseId: '5',
      id: '9',
      attributes: { paid: true },
      included: [{ type: 'company', id: 'new-c', attributes: { name: 'Bau GmbH' } }],
    },
    path: 'included.0',
    message: 'must be named by relationships.company',
  },
  {
    name: 'participation.create',
    why: 'a new company that is not included',
    args: variant('participation.create', (a) => delete a.included),
    path: 'relationships.company.data.id',
    message: 'company "new-c" is not in included',
  },
  {
    name: 'participation.update',
    why: 'status cancelled (that is participation.cancel)',
    args: { courseId: '5', id: '9', attributes: { status: 'cancelled' } },
    path: 'attributes.status',
    message: 'participation.cancel',
  },
  // value types
  ...(
    [
      ['stunden', '2.5', /expected number/],
      ['von', '2026-03-01T08:00:00Z', 'date-time with offset'],
      ['von', '2026-03-01T08:00+01:00', 'date-time with offset'],
      ['von', '2026-02-30T08:00:00+01:00', 'date-time with offset'],
      ['bis', '', 'date-time with offset'],
      ['anfahrt_km', -1, /too small/i],
      ['freigegeben', 'true', /expected boolean/],
    ] as const
  ).map(([member, value, message]): Refusal => ({
    name: 'helferstunden.update',
    why: `${member} ${JSON.stringify(value)}`,
    args: { id: '17', attributes: { [member]: value } },
    path: `attributes.${member}`,
    message,
  })),
  {
    name: 'helferstunden.create',
    why: 'bis before von',
    args: variant('helferstunden.create', (a) => (a.attributes.bis = '2026-03-01T07:00:00+01:00')),
    path: 'attributes.bis',
    message: 'bis lies before von',
  },
  {
    name: 'user.update',
    why: 'gebdat null (personnel dates are "" when empty)',
    args: { id: USER, attributes: { gebdat: null } },
    path: 'attributes.gebdat',
    message: /expected string/,
  },
  {
    name: 'user.update',
    why: 'an unknown right',
    args: { id: USER, attributes: { rechte: ['alles'] } },
    path: 'attributes.rechte.0',
    message: /expected one of/,
  },
  {
    name: 'user.update',
    why: 'an unknown member of fahrerlaubnis',
    args: { id: USER, attributes: { fahrerlaubnis: { klasse: 'B' } } },
    path: 'attributes.fahrerlaubnis',
    message: /"klasse"/,
  },
  {
    name: 'helferstunden_anlass.create',
    why: 'an unknown typ',
    args: { attributes: { typ: 'feier', beschreibung: 'x' } },
    path: 'attributes.typ',
    message: /expected one of/,
  },
  {
    name: 'kalender.create',
    why: 'a colour by name',
    args: { attributes: { name: 'x', farbe: 'red' } },
    path: 'attributes.farbe',
    message: '#RRGGBB',
  },
  {
    name: 'course.create',
    why: 'max_participants as a string',
    args: variant('course.create', (a) => (a.attributes.max_participants = '12')),
    path: 'attributes.max_participants',
    message: /expected number/,
  },
  // custom fields
  {
    name: 'customfield.create',
    why: 'a select without options',
    args: { courseId: '5', attributes: { name: 'Größe', field_type: 'select' } },
    path: 'attributes.options',
    message: 'at least one option',
  },
  {
    name: 'customfield.create',
    why: 'a number field with text',
    args: { courseId: '5', attributes: { name: 'Alter', field_type: 'number', value: 'zwölf' } },
    path: 'attributes.value',
    message: 'must be a decimal number',
  },
  {
    name: 'customfield.create',
    why: 'a required field without a value',
    args: { courseId: '5', attributes: { name: 'Alter', field_type: 'text', required: true } },
    path: 'attributes.value',
    message: 'a required field needs a value',
  },
  {
    name: 'customfield.update',
    why: 'an unknown field_type',
    args: { courseId: '5', id: '2', attributes: { field_type: 'color' } },
    path: 'attributes.field_type',
    message: /expected one of/,
  },
  // the outbox's own
  {
    name: 'outbox.list',
    why: 'an unknown state',
    args: { states: ['lost'] },
    path: 'states.0',
    message: /expected one of/,
  },
  {
    name: 'outbox.retry',
    why: 'an id as a string',
    args: { id: '3' },
    path: 'id',
    message: /expected number/,
  },
  {
    name: 'outbox.edit',
    why: 'no arguments',
    args: { id: 3 },
    path: 'arguments',
    message: /expected record/,
  },
  {
    name: 'conflicts.resolve',
    why: 'take neither mine nor theirs',
    args: { id: 1, take: 'both' },
    path: 'take',
    message: /expected one of/,
  },
  {
    name: 'conflicts.list',
    why: 'an unknown argument',
    args: { all: true },
    path: '',
    message: /"all"/,
  },
];

describe('commands refuse what the service would refuse', () => {
  it.each(refusals.map((refusal) => [`${refusal.name}: ${refusal.why}`, refusal] as const))(
    '%s',
    (_, { name, args, path, message }) => {
      const result = parse(name, args);
      expect(result.success).toBe(false);
      const issues = (result.error?.issues ?? []).map((issue) => ({
        path: issue.path.join('.'),
        message: issue.message,
      }));
      expect(issues).toContainEqual({
        path,
        message:
          typeof message === 'string'
            ? expect.stringContaining(message)
            : expect.stringMatching(message),
      });
    },
  );

  it('names the member in both languages', () => {
    const result = parse(
      'user.create',
      variant('user.create', (a) => (a.attributes.name = 'x')),
    );
    const issue = result.error?.issues.find(
      (candidate) => candidate.path.join('.') === 'attributes.name',
    );
    expect(issue).toMatchObject({
      code: 'custom',
      message: '"name" is read-only (the service derives it)',
      params: { de: '"name" ist schreibgeschützt (der Dienst leitet es ab)' },
    });
  });

  it('reports an unknown attribute even when other members are invalid too', () => {
    const result = parse('user.update', { id: USER, attributes: { ort: 7, foo: 1 } });
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual(
      expect.arrayContaining(['attributes.ort', 'attributes.foo']),
    );
  });
});

describe('values', () => {
  it('dates are real calendar dates', () => {
    expect(isDate('2028-02-29')).toBe(true);
    expect(isDate('2026-02-29')).toBe(false);
    expect(isDate('2026-1-01')).toBe(false);
    expect(isDateTime('2026-03-01T08:00:00-05:30')).toBe(true);
    expect(isDateTime('2026-03-01T24:00:00+01:00')).toBe(false);
  });

  it('temporary ids are local-<uuid v4>', () => {
    expect(isLocalId(LOCAL)).toBe(true);
    expect(isLocalId(crypto.randomUUID())).toBe(false);
    expect(isLocalId(`local-${crypto.randomUUID()}`)).toBe(true);
    expect(isLocalId(`local-${crypto.randomUUID().toUpperCase()}`)).toBe(false);
  });

  it('a null second value removes a qualification', () => {
    const result = parse('user.update', {
      id: USER,
      attributes: { qualifikationen: [{ position: 1, rang: null }] },
    });
    expect(result.success).toBe(true);
  });
});

describe('WRITE_COMMANDS', () => {
  const expected: Record<WriteCommandName, [string, string, string]> = {
    'user.create': ['user', 'POST', '/personal'],
    'user.update': ['user', 'PATCH', `/personal/${USER}`],
    'user.upsert': ['user', 'PUT', '/personal/mitgliednr/M-17%2F2'],
    'ausbildung.delete': ['ausbildung', 'DELETE', `/personal/${USER}/ausbildungen/42`],
    'kalender.create': ['kalender', 'POST', '/kalender'],
    'kalender.delete': ['kalender', 'DELETE', `/kalender/${LOCAL}`],
    'helferstunden.create': ['helferstunden', 'POST', '/helferstunden'],
    'helferstunden.update': ['helferstunden', 'PATCH', '/helferstunden/17'],
    'helferstunden.delete': ['helferstunden', 'DELETE', '/helferstunden/17'],
    'helferstunden_anlass.create': ['helferstunden_anlass', 'POST', '/helferstunden/anlass'],
    'helferstunden_anlass.update': [
      'helferstunden_anlass',
      'PATCH',
      `/helferstunden/anlass/${LOCAL}`,
    ],
    'benachrichtigung.update': ['benachrichtigung', 'PATCH', `/benachrichtigungen/${NOTIFICATION}`],
    'benachrichtigung.delete': [
      'benachrichtigung',
      'DELETE',
      `/benachrichtigungen/${NOTIFICATION}`,
    ],
    'course.create': ['course', 'POST', '/courses'],
    'participation.create': ['participation', 'POST', `/courses/${LOCAL}/participations`],
    'participation.update': ['participation', 'PATCH', '/courses/5/participations/9'],
    'participation.cancel': ['participation', 'POST', `/courses/5/participations/${LOCAL}/cancel`],
    'customfield.create': ['customfield', 'POST', '/courses/5/customfields'],
    'customfield.update': ['customfield', 'PATCH', '/courses/5/customfields/2'],
    'customfield.delete': ['customfield', 'DELETE', `/courses/${LOCAL}/customfields/${LOCAL}`],
  };

  it.each(Object.keys(expected) as WriteCommandName[])('%s', (name) => {
    const spec = WRITE_COMMANDS[name] as {
      type: string;
      method: string;
      path: (args: unknown) => string;
    };
    const args = commands[name].parse(valid[name]);
    expect([spec.type, spec.method, spec.path(args)]).toEqual(expected[name]);
  });

  it('a PUT by user_id puts the id in the path', () => {
    const args = commands['user.upsert'].parse({
      identifierName: 'user_id',
      identifierValue: USER,
      attributes: { ort: 'Kassel' },
    });
    expect(WRITE_COMMANDS['user.upsert'].path(args)).toBe(`/personal/user_id/${USER}`);
  });

  it('verbs and bodies fit the methods', () => {
    for (const [name, spec] of Object.entries(WRITE_COMMANDS)) {
      expect(name.endsWith(`.${spec.verb}`)).toBe(true);
      expect(spec.documentType === null).toBe(spec.method === 'DELETE');
    }
    expect(WRITE_COMMANDS['participation.cancel'].documentType).toBe('cancellation');
  });
});

describe('types (checked by npm run typecheck)', () => {
  it('required members are required, the others optional', () => {
    type UserCreate = CommandArgs<'user.create'>['attributes'];
    expectTypeOf<UserCreate['vorname']>().toEqualTypeOf<string>();
    expectTypeOf<UserCreate['ort']>().toEqualTypeOf<string | undefined>();
    type Hours = ParsedCommandArgs<'helferstunden.create'>;
    expectTypeOf<Hours['attributes']['bis']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<
      Hours['relationships']['anlass']['data']['type']
    >().toEqualTypeOf<'helferstunden_anlass'>();
    expectTypeOf<ParsedCommandArgs<'user.upsert'>['identifierName']>().toEqualTypeOf<
      'user_id' | 'mitgliednr'
    >();
    expectTypeOf<CommandResults['course.create']>().toEqualTypeOf<WriteAnswer<CourseDetail>>();
    // A write answers its record as the screen's read gives it.
    expectTypeOf<
      CommandResults['participation.update']['record']
    >().toEqualTypeOf<ParticipationItem | null>();
    expectTypeOf<CommandResults['participation.update']>().toMatchTypeOf<WriteReceipt>();
    expectTypeOf<CommandResults['outbox.retry']>().toEqualTypeOf<OutboxEntry>();
    // @ts-expect-error: an attribute the contract does not know is a type error as well
    const _typo: CommandArgs<'kalender.create'>['attributes'] = { name: 'x', colour: '#fff' };
  });
});
