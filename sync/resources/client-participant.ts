// A course client's participant: a participation as the client's own list shows it, keyed by
// the client (the parent) and its id. The registry's name is its own: the service sends it as a
// `participation`, which is the course's participant.
import type { RecordColumns } from '../db/schema';
import { childRowOf, column } from './columns';
import type { ResourceModule } from './resource';

export interface ClientParticipantsTable extends RecordColumns {
  client_id: string;
  id: string;
  course_id: string | null;
  first_name: string | null;
  last_name: string | null;
  status: string | null;
}

export const clientParticipant = {
  type: 'client_participant',
  serviceTypes: ['participation'],
  table: 'client_participants',
  keys: ['client_id', 'id'],
  references: { client_id: 'client' },
  row: childRowOf<ClientParticipantsTable>({
    client_id: (_a, _r, clientId) => clientId,
    course_id: column.related('course'),
    first_name: column.text('first_name'),
    last_name: column.text('last_name'),
    status: column.text('status'),
  }),
} satisfies ResourceModule & { row: unknown };
