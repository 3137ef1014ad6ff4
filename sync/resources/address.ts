// A course's location (`address`), included with the courses.
import type { AddressesTable } from '../db/schema';
import { column, rowOf } from './columns';
import type { ResourceModule } from './resource';

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
