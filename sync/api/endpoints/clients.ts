// Clients of courses, their courses and participants (seed 4.8).
import type { ApiCore, RequestOptions } from '../core';
import type { Page, Single } from '../pages';
import {
  clientResource,
  courseResource,
  participationResource,
  type ClientResource,
  type CourseResource,
  type ParticipationResource,
} from './courses';
import type { CourseInclude } from './courses';
import type { IncludeOptions } from './include';
import { pathSegment } from './path';

export interface ClientsApi {
  listClients(options?: RequestOptions): AsyncGenerator<Page<ClientResource>>;
  getClient(id: string, options?: RequestOptions): Promise<Single<ClientResource>>;
  /** Courses whose client it is or that have a participant of it. */
  listClientCourses(
    clientId: string,
    options?: IncludeOptions<CourseInclude>,
  ): AsyncGenerator<Page<CourseResource>>;
  getClientCourse(
    clientId: string,
    courseId: string,
    options?: IncludeOptions<CourseInclude>,
  ): Promise<Single<CourseResource>>;
  listClientParticipants(
    clientId: string,
    options?: RequestOptions,
  ): AsyncGenerator<Page<ParticipationResource>>;
}

export function clientsApi(core: ApiCore): ClientsApi {
  const clientPath = (clientId: string) => `/clients/${pathSegment(clientId)}`;
  return {
    listClients: (options) => core.list('/clients', {}, clientResource, options),
    getClient: (id, options) => core.getOne(clientPath(id), {}, clientResource, options),
    listClientCourses: (clientId, options = {}) =>
      core.list(
        `${clientPath(clientId)}/courses`,
        { include: options.include },
        courseResource,
        options,
      ),
    getClientCourse: (clientId, courseId, options = {}) =>
      core.getOne(
        `${clientPath(clientId)}/courses/${pathSegment(courseId)}`,
        { include: options.include },
        courseResource,
        options,
      ),
    listClientParticipants: (clientId, options) =>
      core.list(`${clientPath(clientId)}/participants`, {}, participationResource, options),
  };
}
