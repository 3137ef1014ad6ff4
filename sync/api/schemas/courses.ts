// The courses module (English words, as the interface): courses with their types, dates and
// locations, participations and cancellations, companies, UVTs, clients and custom fields.
import { z } from 'zod';
import { date, dateTime, flag, integer, number, resourceSchema, text, texts } from './common';

export const courseResource = resourceSchema('course', {
  title: text,
  status: text,
  course_number: text.optional(),
  uvt_registration_number: text.optional(),
  comment: text.optional(),
  number_of_participants: integer.optional(),
  max_participants: integer.nullable().optional(),
  price: number.nullable().optional(),
  created_at: dateTime.optional(),
  updated_at: dateTime.optional(),
});
export type CourseResource = z.infer<typeof courseResource>;

export const courseTypeResource = resourceSchema('course_type', {
  name: text,
  short_name: text.optional(),
  units: integer.nullable().optional(),
  default_price: number.nullable().optional(),
  validity_years: integer.nullable().optional(),
});
export type CourseTypeResource = z.infer<typeof courseTypeResource>;

export const courseDateResource = resourceSchema('course_date', {
  from: dateTime,
  to: dateTime,
});
export type CourseDateResource = z.infer<typeof courseDateResource>;

export const addressResource = resourceSchema('address', {
  description: text.optional(),
  street: text.optional(),
  street_name: text.optional(),
  street_number: text.optional(),
  address_addition: text.optional(),
  postal_code: text.optional(),
  city: text.optional(),
  country: text.optional(),
  contact_person_salutation: text.optional(),
  contact_person_name: text.optional(),
  phone: text.optional(),
  mobile: text.optional(),
  email: text.optional(),
  geo: z.looseObject({ lat: number, lng: number }).optional(),
});
export type AddressResource = z.infer<typeof addressResource>;

export const participationResource = resourceSchema('participation', {
  first_name: text,
  last_name: text,
  status: text,
  birthday: date.optional(),
  email: text.optional(),
  phone: text.optional(),
  attended: flag.optional(),
  paid: flag.optional(),
  certificate_number: text.optional(),
  comment: text.optional(),
  created_at: dateTime.optional(),
  updated_at: dateTime.optional(),
});
export type ParticipationResource = z.infer<typeof participationResource>;

export const cancellationResource = resourceSchema('cancellation', {
  reason: text.optional(),
  cancelled_at: dateTime.optional(),
});
export type CancellationResource = z.infer<typeof cancellationResource>;

export const companyResource = resourceSchema('company', {
  name: text,
  street: text.optional(),
  postal_code: text.optional(),
  city: text.optional(),
  uvt_member_number: text.optional(),
});
export type CompanyResource = z.infer<typeof companyResource>;

export const uvtResource = resourceSchema('uvt', {
  name: text,
  short_name: text.optional(),
  favorite: flag.optional(),
});
export type UvtResource = z.infer<typeof uvtResource>;

export const clientResource = resourceSchema('client', {
  name: text,
  customer_number: text.optional(),
  street: text.optional(),
  postal_code: text.optional(),
  city: text.optional(),
  contact_person: text.optional(),
  email: text.optional(),
  phone: text.optional(),
});
export type ClientResource = z.infer<typeof clientResource>;

export const customFieldResource = resourceSchema('customfield', {
  name: text,
  field_type: text,
  options: texts.optional(),
  value: text.nullable().optional(),
  required: flag.optional(),
  position: integer.optional(),
});
export type CustomFieldResource = z.infer<typeof customFieldResource>;
