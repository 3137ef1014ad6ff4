// The courses module: courses, course types, participations, custom fields, UVTs (seed 4.6, 4.7, 4.9, 4.10).
import type { ApiCore, RequestOptions } from '../core';
import type { Page, Single } from '../pages';
import {
  courseResource,
  courseTypeResource,
  customFieldResource,
  participationResource,
  uvtResource,
  type CourseResource,
  type CourseTypeResource,
  type CustomFieldResource,
  type ParticipationResource,
  type UvtResource,
} from '../schemas/courses';
import type { IncludeOptions } from './include';
import { pathSegment } from './path';

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
