// The custom fields area's commands: a course's own fields (customfield.*), with their schemas,
// their writes and the tables those change.
// Imports zod and the contract only: the renderer (a browser) imports it through sync/contract.ts.
import { z } from 'zod';
import {
  ids,
  isDate,
  named,
  nonBlank,
  requireChange,
  say,
  text,
  type RecordTables,
  type WriteSpecs,
} from './schema-kit';
import type { CourseDetail } from '../contract';

/** The tables a write of each of the area's resource types changes. */
export const recordTables = { customfield: ['customfields'] } as const satisfies RecordTables;

/** A written record as the area's read gives it (see WrittenRecords). */
export interface Written {
  customfield: CourseDetail['customfields'][number];
}

// ---------------------------------------------------------------------------------------------
// customfield

export const FIELD_TYPES = ['text', 'number', 'checkbox', 'date', 'select'] as const;
type FieldType = (typeof FIELD_TYPES)[number];
const customfieldAttributes = z
  .object({
    name: nonBlank,
    field_type: z.enum(FIELD_TYPES),
    options: z.array(nonBlank),
    value: text,
    required: z.boolean(),
    position: z.number().int().min(0),
  })
  .partial();

const FIELD_VALUES: Record<
  FieldType,
  { fits: (value: string, options: string[]) => boolean; en: string; de: string }
> = {
  text: { fits: () => true, en: 'text', de: 'Text' },
  number: {
    fits: (value) => /^-?\d+(\.\d+)?$/.test(value),
    en: 'a decimal number such as 12.5',
    de: 'eine Dezimalzahl wie 12.5',
  },
  checkbox: {
    fits: (value) => value === '0' || value === '1',
    en: '"0" or "1"',
    de: '"0" oder "1"',
  },
  date: { fits: isDate, en: 'a date YYYY-MM-DD', de: 'ein Datum JJJJ-MM-TT' },
  select: {
    fits: (value, options) => options.includes(value),
    en: 'one of the options',
    de: 'eine der Optionen',
  },
};

/**
 * The field's rules that concern several attributes, checked as far as the command tells:
 * on create the whole field (defaults: no options, empty value, not required), on update only
 * what the command itself gives.
 */
function customfieldRules(creating: boolean) {
  return (
    args: {
      attributes: {
        field_type?: FieldType;
        options?: string[];
        value?: string;
        required?: boolean;
      };
    },
    ctx: z.core.$RefinementCtx,
  ): void => {
    const { field_type: type, options, value, required } = args.attributes;
    if (type === 'select' && (creating || options !== undefined) && (options ?? []).length === 0)
      say(
        ctx,
        ['attributes', 'options'],
        'a select field needs at least one option',
        'ein Auswahlfeld braucht mindestens eine Option',
      );
    if (creating && required === true && !value)
      say(
        ctx,
        ['attributes', 'value'],
        'a required field needs a value',
        'ein Pflichtfeld braucht einen Wert',
      );
    if (type === undefined || value === undefined || value === '') return;
    if (type === 'select' && options === undefined && !creating) return;
    const rule = FIELD_VALUES[type];
    if (!rule.fits(value, options ?? []))
      say(
        ctx,
        ['attributes', 'value'],
        `the value of a ${type} field must be ${rule.en}`,
        `der Wert eines Felds vom Typ ${type} muss ${rule.de} sein`,
      );
  };
}

// ---------------------------------------------------------------------------------------------
// The commands

export const commands = {
  'customfield.create': z
    .strictObject({
      courseId: ids.record,
      attributes: named('customfield', 'attribute', customfieldAttributes, {
        required: ['name', 'field_type'],
      }),
    })
    .superRefine(customfieldRules(true)),
  'customfield.update': z
    .strictObject({
      courseId: ids.record,
      id: ids.record,
      attributes: named('customfield', 'attribute', customfieldAttributes),
    })
    .superRefine(requireChange('attributes'))
    .superRefine(customfieldRules(false)),
  'customfield.delete': z.strictObject({ courseId: ids.record, id: ids.record }),
} as const;

/** Where each write goes: resource type, method and path (merged into WRITE_COMMANDS). */
export const writes: WriteSpecs<typeof commands> = {
  'customfield.create': {
    type: 'customfield',
    verb: 'create',
    method: 'POST',
    path: ({ courseId }) => `/courses/${courseId}/customfields`,
    documentType: 'customfield',
  },
  'customfield.update': {
    type: 'customfield',
    verb: 'update',
    method: 'PATCH',
    path: ({ courseId, id }) => `/courses/${courseId}/customfields/${id}`,
    documentType: 'customfield',
  },
  'customfield.delete': {
    type: 'customfield',
    verb: 'delete',
    method: 'DELETE',
    path: ({ courseId, id }) => `/courses/${courseId}/customfields/${id}`,
    documentType: null,
  },
};
