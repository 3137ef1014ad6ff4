// The courses module (seed 4.6, 4.7, 4.9, 4.10; English words, as the interface): its resources'
// schemas (courses with their types, dates and locations, participations and cancellations,
// companies, UVTs, clients and custom fields) and its operations. Every attribute is read
// tolerantly (see ../schemas/tolerance); the only one required to file a record is a course
// date's `from` (a course's first and last date, and the course window, come from it).
import type { z } from 'zod';
import {
  date,
  dateTime,
  flag,
  integer,
  number,
  object,
  required,
  resourceSchema,
  text,
  texts,
} from '../schemas/common';
import type { ApiCore, RequestOptions } from '../core';
import type { Page, Single } from '../pages';
import type { IncludeOptions } from './include';
import { pathSegment } from './path';

export const courseResource = resourceSchema('course', {
  title: text,
  status: text,
  course_number: text,
  uvt_registration_number: text,
  comment: text,
  number_of_participants: integer,
  max_participants: integer,
  organizer_on_site: text,
  price: number,
  created_at: dateTime,
  updated_at: dateTime,
});
export type CourseResource = z.infer<typeof courseResource>;

/** Course types (`/courses/types`, included as `course_type`); the seed leaves the type open. */
export const courseTypeResource = resourceSchema(
  'course_type',
  {
    name: text,
    short_name: text,
    units: integer,
    default_price: number,
    validity_years: integer,
  },
  { anyTypeSpelling: true },
);
export type CourseTypeResource = z.infer<typeof courseTypeResource>;

/** Required: `from`, without which the date cannot be placed (and the course not windowed). */
export const courseDateResource = resourceSchema('course_date', {
  from: required(dateTime),
  to: dateTime,
});
export type CourseDateResource = z.infer<typeof courseDateResource>;

export const addressResource = resourceSchema('address', {
  description: text,
  street: text,
  street_name: text,
  street_number: text,
  address_addition: text,
  postal_code: text,
  city: text,
  country: text,
  contact_person_salutation: text,
  contact_person_name: text,
  phone: text,
  mobile: text,
  email: text,
  geo: object({ lat: number, lng: number }),
});
export type AddressResource = z.infer<typeof addressResource>;

const participationFields = {
  first_name: text,
  last_name: text,
  status: text,
  birthday: date,
  email: text,
  phone: text,
  attended: flag,
  paid: flag,
  certificate_number: text,
  comment: text,
  created_at: dateTime,
  updated_at: dateTime,
};
export const participationResource = resourceSchema('participation', participationFields);
export type ParticipationResource = z.infer<typeof participationResource>;

export const cancellationResource = resourceSchema('cancellation', {
  reason: text,
  cancelled_at: dateTime,
});
export type CancellationResource = z.infer<typeof cancellationResource>;

export const companyResource = resourceSchema('company', {
  name: text,
  street: text,
  postal_code: text,
  city: text,
  uvt_member_number: text,
});
export type CompanyResource = z.infer<typeof companyResource>;

/** UVTs (`/uvts`, included as `uvt`); the seed leaves the type open. */
export const uvtResource = resourceSchema(
  'uvt',
  { name: text, short_name: text, favorite: flag },
  { anyTypeSpelling: true },
);
export type UvtResource = z.infer<typeof uvtResource>;

export const clientResource = resourceSchema('client', {
  name: text,
  customer_number: text,
  street: text,
  postal_code: text,
  city: text,
  contact_person: text,
  email: text,
  phone: text,
});
export type ClientResource = z.infer<typeof clientResource>;

export const customFieldResource = resourceSchema('customfield', {
  name: text,
  field_type: text,
  options: texts,
  value: text,
  required: flag,
  position: integer,
});
export type CustomFieldResource = z.infer<typeof customFieldResource>;

/** Dates (`course_date`) and the location (`address`) always come included. */
export type CourseInclude = 'client' | 'course_type' | 'course_date' | 'address';
export type ParticipationInclude = 'company' | 'uvt';

export interface ListCoursesOptions extends IncludeOptions<CourseInclude> {
  /** 'YYYY-MM-DD'. The service's default is today. */
  from?: string;
  /** 'YYYY-MM-DD'. The service's default is twelve months from today. */
  until?: string;
  trainerUserId?: string;
}

export interface CoursesApi {
  listCourses(options?: ListCoursesOptions): AsyncGenerator<Page<CourseResource>>;
  getCourse(id: string, options?: IncludeOptions<CourseInclude>): Promise<Single<CourseResource>>;
  listCourseTypes(options?: RequestOptions): AsyncGenerator<Page<CourseTypeResource>>;
  listParticipations(
    courseId: string,
    options?: IncludeOptions<ParticipationInclude>,
  ): AsyncGenerator<Page<ParticipationResource>>;
  getParticipation(
    courseId: string,
    id: string,
    options?: IncludeOptions<ParticipationInclude>,
  ): Promise<Single<ParticipationResource>>;
  listCustomFields(
    courseId: string,
    options?: RequestOptions,
  ): AsyncGenerator<Page<CustomFieldResource>>;
  getCustomField(
    courseId: string,
    id: string,
    options?: RequestOptions,
  ): Promise<Single<CustomFieldResource>>;
  listUvts(options?: RequestOptions): AsyncGenerator<Page<UvtResource>>;
}

export function coursesApi(core: ApiCore): CoursesApi {
  const coursePath = (courseId: string) => `/courses/${pathSegment(courseId)}`;
  return {
    listCourses: (options = {}) =>
      core.list(
        '/courses',
        {
          'filter[from]': options.from,
          'filter[until]': options.until,
          'filter[trainer_user_id]': options.trainerUserId,
          include: options.include,
        },
        courseResource,
        options,
      ),
    getCourse: (id, options = {}) =>
      core.getOne(coursePath(id), { include: options.include }, courseResource, options),
    listCourseTypes: (options) => core.list('/courses/types', {}, courseTypeResource, options),
    listParticipations: (courseId, options = {}) =>
      core.list(
        `${coursePath(courseId)}/participations`,
        { include: options.include },
        participationResource,
        options,
      ),
    getParticipation: (courseId, id, options = {}) =>
      core.getOne(
        `${coursePath(courseId)}/participations/${pathSegment(id)}`,
        { include: options.include },
        participationResource,
        options,
      ),
    listCustomFields: (courseId, options) =>
      core.list(`${coursePath(courseId)}/customfields`, {}, customFieldResource, options),
    getCustomField: (courseId, id, options) =>
      core.getOne(
        `${coursePath(courseId)}/customfields/${pathSegment(id)}`,
        {},
        customFieldResource,
        options,
      ),
    listUvts: (options) => core.list('/uvts', {}, uvtResource, options),
  };
}

/** The area's resource schemas by JSON:API `type` (merged in ./index.ts). */
export const coursesSchemas = {
  course: courseResource,
  course_type: courseTypeResource,
  course_date: courseDateResource,
  address: addressResource,
  participation: participationResource,
  cancellation: cancellationResource,
  company: companyResource,
  uvt: uvtResource,
  client: clientResource,
  customfield: customFieldResource,
} as const;
