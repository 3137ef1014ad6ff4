// What a client sees of a stored record, where that differs from what is stored:
// - course: `number_of_participants` counts its participations that are not cancelled (always
//   right, whatever was written); `location` is left out when no address is known.
// - address: `geo` is left out when unknown.
// - kalender: `ical_url` is stored as a path and served absolute, with this server's base URL.
// - orga: `module` lists `kurse` only while the course module is licensed.
// Every other type is served as stored.
import type { Store, StoredResource } from '../data/store';
import type { View, ViewOf } from './document';
import type { Links } from './links';

type ViewBuilder = (resource: StoredResource) => View;

function plain(resource: StoredResource): View {
  return { attributes: resource.attributes, relationships: resource.relationships };
}

export function createViews(store: Store, links: Links, coursesLicensed: boolean): ViewOf {
  const builders: Partial<Record<string, ViewBuilder>> = {
    course(course) {
      const participations = store.related('participation', 'course', course.id);
      let active = 0;
      for (const participation of participations)
        if (participation.attributes.status !== 'cancelled') active += 1;
      const { location, ...relationships } = course.relationships;
      return {
        attributes: { ...course.attributes, number_of_participants: active },
        relationships: location ? { ...relationships, location } : relationships,
      };
    },
    address(address) {
      if (address.attributes.geo != null) return plain(address);
      const { geo: _unknown, ...attributes } = address.attributes;
      return { attributes, relationships: address.relationships };
    },
    kalender(kalender) {
      const path =
        typeof kalender.attributes.ical_url === 'string' ? kalender.attributes.ical_url : '';
      return {
        attributes: { ...kalender.attributes, ical_url: links.base + path },
        relationships: kalender.relationships,
      };
    },
    orga(orga) {
      const modules = Array.isArray(orga.attributes.module)
        ? (orga.attributes.module as string[])
        : [];
      const licensed = coursesLicensed ? modules : modules.filter((module) => module !== 'kurse');
      return {
        attributes: { ...orga.attributes, module: licensed },
        relationships: orga.relationships,
      };
    },
  };
  return (resource) => (builders[resource.type] ?? plain)(resource);
}
