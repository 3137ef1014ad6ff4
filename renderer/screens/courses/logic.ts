// The courses workspace's decisions that need no screen: what a row's attendance is, the
// command a walk-in form stands for, the map link of a place, a search typed further. Kept apart from the components so
// that tests run them against the contract and the sandbox.
import {
  courseFoundBy,
  foldForSearch,
  type CommandArgs,
  type ParticipationItem,
} from '../../contract';
import type { Narrowing } from '../../data';
import { serviceDay } from '../../format';

export type Attendance = 'present' | 'absent' | 'open';

/** The attendance a row shows: the status first, the attended flag where the status is silent. */
export function attendanceOf(p: Pick<ParticipationItem, 'status' | 'attended'>): Attendance {
  if (p.status === 'attended') return 'present';
  if (p.status === 'absent') return 'absent';
  if (p.attended === true) return 'present';
  return 'open';
}

type Change = NonNullable<CommandArgs<'participation.update'>['attributes']>;

/** The statuses a row goes back to when its attendance is taken back ("offen"). */
export const OPEN_STATUSES: ReadonlySet<string> = new Set(['registered', 'confirmed']);

/**
 * What participation.update sets for an attendance: present is attended with the status
 * 'attended', absent the status 'absent'; open goes back to the status the row had before
 * (registered or confirmed).
 */
export function attendanceChange(next: Attendance, statusBefore?: string | null): Change {
  if (next === 'present') return { attended: true, status: 'attended' };
  if (next === 'absent') return { attended: false, status: 'absent' };
  const status = statusBefore && OPEN_STATUSES.has(statusBefore) ? statusBefore : 'registered';
  return { attended: false, status: status as Change['status'] };
}

export type CompanyMode = 'none' | 'existing' | 'new';

/** The walk-in form as typed. */
export interface WalkIn {
  first_name: string;
  last_name: string;
  birthday: string;
  email: string;
  phone: string;
  present: boolean;
  mode: CompanyMode;
  companySearch: string;
  company: { id: string; name: string; uvtId: string | null; uvt: string | null } | null;
  newName: string;
  newStreet: string;
  newPostalCode: string;
  newCity: string;
  newUvt: string;
  newMemberNumber: string;
}

export const EMPTY_WALK_IN: WalkIn = {
  first_name: '',
  last_name: '',
  birthday: '',
  email: '',
  phone: '',
  present: true,
  mode: 'none',
  companySearch: '',
  company: null,
  newName: '',
  newStreet: '',
  newPostalCode: '',
  newCity: '',
  newUvt: '',
  newMemberNumber: '',
};

/**
 * Whether the course runs on `day` (YYYY-MM-DD, the service's): a walk-in added on a course day
 * is there, so the form starts ticked "present"; one registered ahead of the course is not yet.
 */
export function runsOn(
  course: { firstDate: string | null; lastDate: string | null },
  day: string,
): boolean {
  const starts = course.firstDate;
  if (!starts) return false;
  return serviceDay(starts) <= day && day <= serviceDay(course.lastDate ?? starts);
}

/** The id of the new company inside the request (the service swaps it for its own). */
const NEW_COMPANY = 'new-1';

type CreateArgs = CommandArgs<'participation.create'>;

/** The command the form stands for (only what was filled in). */
export function participationArgs(courseId: string, form: WalkIn): CreateArgs {
  const attributes: CreateArgs['attributes'] = {
    first_name: form.first_name.trim(),
    last_name: form.last_name.trim(),
  };
  if (form.birthday) attributes.birthday = form.birthday;
  if (form.email.trim()) attributes.email = form.email.trim();
  if (form.phone.trim()) attributes.phone = form.phone.trim();
  if (form.present) {
    attributes.attended = true;
    attributes.status = 'attended';
  }
  const args: CreateArgs = { courseId, attributes };
  if (form.mode === 'existing' && form.company) {
    args.relationships = {
      company: { data: { type: 'company', id: form.company.id } },
      ...(form.company.uvtId ? { uvt: { data: { type: 'uvt', id: form.company.uvtId } } } : {}),
    };
  } else if (form.mode === 'new') {
    const company: NonNullable<CreateArgs['included']>[number] = {
      type: 'company',
      id: NEW_COMPANY,
      attributes: { name: form.newName.trim() },
    };
    if (form.newStreet.trim()) company.attributes.street = form.newStreet.trim();
    if (form.newPostalCode.trim()) company.attributes.postal_code = form.newPostalCode.trim();
    if (form.newCity.trim()) company.attributes.city = form.newCity.trim();
    if (form.newMemberNumber.trim())
      company.attributes.uvt_member_number = form.newMemberNumber.trim();
    if (form.newUvt) company.relationships = { uvt: { data: { type: 'uvt', id: form.newUvt } } };
    args.included = [company];
    args.relationships = {
      company: { data: { type: 'company', id: NEW_COMPANY } },
      ...(form.newUvt ? { uvt: { data: { type: 'uvt', id: form.newUvt } } } : {}),
    };
  }
  return args;
}

/** The map link: OpenStreetMap at the place's coordinates. */
export function mapUrl(geo: unknown): string | null {
  if (typeof geo !== 'object' || geo === null) return null;
  const { lat, lng } = geo as { lat?: unknown; lng?: unknown };
  const latitude = typeof lat === 'string' ? Number(lat) : lat;
  const longitude = typeof lng === 'string' ? Number(lng) : lng;
  if (typeof latitude !== 'number' || typeof longitude !== 'number') return null;
  if (!Number.isFinite(latitude) || !Number.isFinite(longitude)) return null;
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return null;
  return `https://www.openstreetmap.org/?mlat=${latitude}&mlon=${longitude}#map=17/${latitude}/${longitude}`;
}

/**
 * A search typed further (its text within the new one's, every other filter the same) keeps the
 * courses the new text finds: the list shows them in the key's own frame, the core's answer
 * follows.
 */
export const searchTypedFurther: Narrowing<'courses.list'> = (before, after) => {
  const { search: was = '', ...othersBefore } = before;
  const { search: is = '', ...othersAfter } = after;
  if (JSON.stringify(othersBefore) !== JSON.stringify(othersAfter)) return null;
  const [wasFolded, isFolded] = [foldForSearch(was.trim()), foldForSearch(is.trim())];
  return isFolded !== wasFolded && isFolded.includes(wasFolded) ? courseFoundBy(is) : null;
};
