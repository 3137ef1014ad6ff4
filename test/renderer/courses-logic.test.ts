// The courses workspace's commands as its screens build them (renderer/screens/courses/logic.ts),
// against the real core and the sandbox: a walk-in with a new company and its UVT, one with a
// known company, attendance present, absent and back to open. The contract accepts them, the
// replica shows them at once (marked local), and after the push the service holds exactly that.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  attendanceChange,
  attendanceOf,
  EMPTY_WALK_IN,
  mapUrl,
  participationArgs,
  runsOn,
} from '../../renderer/screens/courses/logic';
import { commands, type ParticipationItem } from '../../sync/contract';
import { temporaryFiles } from '../support/temp-files';
import { call, outbox, push, startWorld, write, type World } from '../sync/outbox/world';

const tempFile = temporaryFiles('courses-logic');

let world: World;
const store = () => world.sandbox.store;
const related = (record: { relationships: Record<string, unknown> }, name: string) =>
  (record.relationships[name] as { id: string } | null | undefined)?.id ?? null;

beforeAll(async () => {
  world = await startWorld(tempFile('replica.sqlite'));
});
afterAll(() => world.close());

/** A course that takes registrations: ready, with free places. */
function openCourse() {
  const course = store()
    .all('course')
    .find((c) => {
      if (c.attributes.status !== 'ready') return false;
      const max = Number(c.attributes.max_participants ?? 0);
      const taken = store()
        .all('participation')
        .filter((p) => related(p, 'course') === c.id && p.attributes.status !== 'cancelled').length;
      return max === 0 || taken + 2 <= max;
    });
  expect(course).toBeDefined();
  return course!;
}

describe('the walk-in form', () => {
  it('refuses what the service would refuse, at the fields the form shows', () => {
    const empty = commands['participation.create'].safeParse(
      participationArgs('1', { ...EMPTY_WALK_IN, mode: 'new' }),
    );
    expect(empty.success).toBe(false);
    const paths = empty.error!.issues.map((issue) => issue.path.join('.'));
    expect(paths).toEqual(
      expect.arrayContaining([
        'attributes.first_name',
        'attributes.last_name',
        'included.0.attributes.name',
      ]),
    );
    const email = commands['participation.create'].safeParse(
      participationArgs('1', { ...EMPTY_WALK_IN, first_name: 'A', last_name: 'B', email: 'x' }),
    );
    expect(email.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['attributes.email']);
  });

  it('a walk-in with a new company and its UVT, one with a known company, attendance: the service holds them', async () => {
    const course = openCourse();
    const uvt = store().all('uvt')[0]!;
    const known = store()
      .all('company')
      .find((company) => related(company, 'uvt') !== null)!;
    expect(known).toBeDefined();
    // Confirmed, so that "open" must bring back that status (not the default 'registered').
    const someone = store()
      .all('participation')
      .find((p) => related(p, 'course') === course.id && p.attributes.status === 'confirmed');
    expect(someone).toBeDefined();

    const newCompany = participationArgs(course.id, {
      ...EMPTY_WALK_IN,
      first_name: ' Max ',
      last_name: 'Muster',
      email: 'max@example.org',
      mode: 'new',
      newName: 'Muster Bau GmbH',
      newCity: 'Musterstadt',
      newUvt: uvt.id,
      newMemberNumber: '4711',
    });
    expect(commands['participation.create'].safeParse(newCompany).success).toBe(true);
    const max = await write(world, 'participation.create', newCompany);

    const knownCompany = participationArgs(course.id, {
      ...EMPTY_WALK_IN,
      first_name: 'Erika',
      last_name: 'Beispiel',
      present: false,
      mode: 'existing',
      company: {
        id: known.id,
        name: String(known.attributes.name),
        uvtId: related(known, 'uvt'),
        uvt: null,
      },
    });
    const erika = await write(world, 'participation.create', knownCompany);

    {
      // Absent, then taken back: open again with the status it had.
      const before = String(someone!.attributes.status);
      await write(world, 'participation.update', {
        courseId: course.id,
        id: someone!.id,
        attributes: attendanceChange('absent'),
      });
      await write(world, 'participation.update', {
        courseId: course.id,
        id: someone!.id,
        attributes: attendanceChange('open', before),
      });
    }

    // At once, offline: in the list, marked as local, with the attendance the screen shows.
    const list = await call<ParticipationItem[]>(world, 'participations.list', {
      courseId: course.id,
    });
    const maxRow = list.find((p) => p.id === max.id);
    expect(maxRow).toMatchObject({ firstName: 'Max', lastName: 'Muster', localState: 'created' });
    expect(attendanceOf(maxRow!)).toBe('present');
    const erikaRow = list.find((p) => p.id === erika.id);
    expect(erikaRow).toMatchObject({ companyId: known.id, localState: 'created' });
    expect(attendanceOf(erikaRow!)).toBe('open');
    expect(attendanceOf(list.find((p) => p.id === someone!.id)!)).toBe('open');

    const pushed = await push(world, world.api, 15_000);
    expect(pushed, JSON.stringify(await outbox(world))).toMatchObject({ parked: 0, unknown: 0 });
    expect(await outbox(world)).toEqual([]);

    const onService = store()
      .all('participation')
      .filter((p) => related(p, 'course') === course.id);
    const maxThere = onService.find((p) => p.attributes.last_name === 'Muster')!;
    expect(maxThere.attributes).toMatchObject({
      first_name: 'Max',
      email: 'max@example.org',
      status: 'attended',
      attended: true,
    });
    expect(related(maxThere, 'uvt')).toBe(uvt.id);
    const company = store().get('company', related(maxThere, 'company')!);
    expect(company?.attributes).toMatchObject({
      name: 'Muster Bau GmbH',
      city: 'Musterstadt',
      uvt_member_number: '4711',
    });
    expect(related(company!, 'uvt')).toBe(uvt.id);

    const erikaThere = onService.find((p) => p.attributes.last_name === 'Beispiel')!;
    expect(related(erikaThere, 'company')).toBe(known.id);
    expect(related(erikaThere, 'uvt')).toBe(related(known, 'uvt'));
    expect(erikaThere.attributes.status).not.toBe('attended');

    const back = store().get('participation', someone!.id)!;
    expect(back.attributes.status).toBe('confirmed');
    expect(back.attributes.attended).toBe(false);
  });
});

describe('attendance and the map link', () => {
  it('reads attendance from the status first, then the flag', () => {
    expect(attendanceOf({ status: 'attended', attended: false })).toBe('present');
    expect(attendanceOf({ status: 'absent', attended: true })).toBe('absent');
    expect(attendanceOf({ status: 'confirmed', attended: true })).toBe('present');
    expect(attendanceOf({ status: 'registered', attended: null })).toBe('open');
    expect(attendanceChange('open', 'confirmed')).toEqual({ attended: false, status: 'confirmed' });
    expect(attendanceChange('open', 'absent')).toEqual({ attended: false, status: 'registered' });
  });

  it('links OpenStreetMap only for coordinates that make sense', () => {
    expect(mapUrl({ lat: 50.1, lng: 8.68 })).toBe(
      'https://www.openstreetmap.org/?mlat=50.1&mlon=8.68#map=17/50.1/8.68',
    );
    expect(mapUrl({ lat: '50.1', lng: '8.68' })).toContain('mlat=50.1');
    expect(mapUrl({ lat: 91, lng: 8 })).toBeNull();
    expect(mapUrl({ lat: 'x', lng: 8 })).toBeNull();
    expect(mapUrl(null)).toBeNull();
  });

  it('starts a walk-in "present" only on a day the course runs', () => {
    const course = {
      firstDate: '2031-03-03T09:00:00+01:00',
      lastDate: '2031-03-05T16:00:00+01:00',
    };
    expect(runsOn(course, '2031-03-02')).toBe(false);
    expect(runsOn(course, '2031-03-03')).toBe(true);
    expect(runsOn(course, '2031-03-05')).toBe(true);
    expect(runsOn(course, '2031-03-06')).toBe(false);
    expect(runsOn({ firstDate: '2031-03-03T09:00:00+01:00', lastDate: null }, '2031-03-03')).toBe(
      true,
    );
    expect(runsOn({ firstDate: null, lastDate: null }, '2031-03-03')).toBe(false);
  });
});
