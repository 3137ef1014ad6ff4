// A course's location (`address`), included with the courses.
import type { RecordColumns } from '../db/schema';
import { column, rowOf } from './columns';
import type { ResourceModule } from './resource';

export interface AddressesTable extends RecordColumns {
  id: string;
  description: string | null;
  city: string | null;
  postal_code: string | null;
}

export const address = {
  type: 'address',
  table: 'addresses',
  keys: ['id'],
  row: rowOf<AddressesTable>({
    description: column.text('description'),
    city: column.text('city'),
    postal_code: column.text('postal_code'),
  }),
} satisfies ResourceModule & { row: unknown };
