// Whether the login may use an area of the service (issue 23): the sync says per area when the
// service refused it (403: no right) or the organisation has not licensed it (423). A screen of
// such an area offers nothing and says why in the sync's words; a navigation entry is left out.
import type { AreaName, AreaStatus } from './contract';
import { useSync } from './stores';

/** The area's status when it cannot be used (forbidden or unlicensed); null when it can (or is not yet known). */
export function useAreaBlocked(area: AreaName): AreaStatus | null {
  return useSync(
    (store) =>
      store.status?.unavailableAreas.find(
        (status) =>
          status.area === area && (status.state === 'forbidden' || status.state === 'unlicensed'),
      ) ?? null,
  );
}
