// Custom fields of a course (tag "CustomFields"): list (by position), create, read, change and
// delete; for office staff and the course's trainers. A field's `value` must fit its type:
// number → a decimal number, checkbox → "0" or "1", date → YYYY-MM-DD, select → one of
// `options` (which a select field needs); `""` is always allowed, except for a required field.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { CustomfieldAttributes } from '../data/model';
import type { StoredResource } from '../data/store';
import { isDate } from './berlin-time';
import { readDocument } from './body';
import { clientIdMeta, createOnce, createRule, refuseUsedClientId } from './client-ids';
import type { ApiContext } from './context';
import { principalOf } from './context';
import { accessibleCourse } from './courses';
import { invalidAttribute, notFound } from './errors';
import { Query } from './query';
import { toOneId } from './records';
import { sendList, sendNoContent, sendResource } from './respond';
import { nonEmptyText } from './schemas';

const FIELD_TYPES = ['text', 'number', 'checkbox', 'date', 'select'] as const;

const customfieldAttributes = z.strictObject({
  name: nonEmptyText,
  field_type: z.enum(FIELD_TYPES),
  options: z.array(nonEmptyText),
  value: z.string(),
  required: z.boolean(),
  position: z.number().int().min(0),
});

const VALUE_RULES: Record<
  CustomfieldAttributes['field_type'],
  { fits: (value: string, options: string[]) => boolean; expected: string }
> = {
  text: { fits: () => true, expected: 'text' },
  number: {
    fits: (value) => /^-?\d+(\.\d+)?$/.test(value),
    expected: 'a decimal number such as 12.5',
  },
  checkbox: { fits: (value) => value === '0' || value === '1', expected: '"0" or "1"' },
  date: { fits: isDate, expected: 'a date YYYY-MM-DD' },
  select: { fits: (value, options) => options.includes(value), expected: 'one of the options' },
};

/** The rules that concern several attributes at once, checked on the field as it will be stored. */
function checkField(field: CustomfieldAttributes): void {
  if (field.field_type === 'select' && field.options.length === 0) {
    throw invalidAttribute('/data/attributes/options', 'A select field needs at least one option.');
  }
  if (field.value === '') {
    if (field.required)
      throw invalidAttribute('/data/attributes/value', 'A required field needs a value.');
    return;
  }
  const rule = VALUE_RULES[field.field_type];
  if (!rule.fits(field.value, field.options)) {
    throw invalidAttribute(
      '/data/attributes/value',
      `The value of a ${field.field_type} field must be ${rule.expected}.`,
    );
  }
}

function byPosition(a: StoredResource, b: StoredResource): number {
  return (
    Number(a.attributes.position) - Number(b.attributes.position) || Number(a.id) - Number(b.id)
  );
}

export function registerCustomfieldRoutes(app: FastifyInstance, context: ApiContext): void {
  type CourseParams = { Params: { courseId: string } };
  type FieldParams = { Params: { courseId: string; id: string } };

  function courseOf(request: FastifyRequest<CourseParams>): StoredResource {
    return accessibleCourse(
      context,
      principalOf(request),
      request.params.courseId,
      'Working with custom fields',
    );
  }

  function fieldOf(request: FastifyRequest<FieldParams>): StoredResource {
    const course = courseOf(request);
    const field = context.store.get('customfield', request.params.id);
    if (!field || toOneId(field, 'course') !== course.id)
      throw notFound(`Course ${course.id} has no custom field ${request.params.id}.`);
    return field;
  }

  app.get<CourseParams>('/courses/:courseId/customfields', async (request, reply) => {
    const query = Query.read(request, []);
    const course = courseOf(request);
    const fields = [...context.store.related('customfield', 'course', course.id)].sort(byPosition);
    return sendList(context, request, reply, query, fields);
  });

  app.post<CourseParams>('/courses/:courseId/customfields', async (request, reply) => {
    Query.read(request, []);
    const course = courseOf(request);
    const document = readDocument(request, {
      type: 'customfield',
      id: createRule(context),
      attributes: customfieldAttributes.partial().required({ name: true, field_type: true }),
    });
    refuseUsedClientId(context, 'customfield', document.id);
    const siblings = context.store.related('customfield', 'course', course.id);
    const attributes: CustomfieldAttributes = {
      options: [],
      value: '',
      required: false,
      position: siblings.reduce(
        (max, field) => Math.max(max, Number(field.attributes.position) + 1),
        0,
      ),
      ...document.attributes,
    };
    checkField(attributes);
    const field = createOnce(context, 'customfield', document.id, () =>
      context.store.put({
        type: 'customfield',
        id: context.store.nextId('customfield'),
        attributes: { ...attributes },
        relationships: { course: { type: 'course', id: course.id } },
      }),
    );
    return sendResource(context, reply, field, { status: 201, meta: clientIdMeta(document.id) });
  });

  app.get<FieldParams>('/courses/:courseId/customfields/:id', async (request, reply) => {
    Query.read(request, []);
    return sendResource(context, reply, fieldOf(request));
  });

  app.patch<FieldParams>('/courses/:courseId/customfields/:id', async (request, reply) => {
    Query.read(request, []);
    const field = fieldOf(request);
    const document = readDocument(request, {
      type: 'customfield',
      id: { kind: 'update', id: field.id },
      attributes: customfieldAttributes.partial(),
    });
    const attributes = {
      ...(field.attributes as unknown as CustomfieldAttributes),
      ...document.attributes,
    };
    checkField(attributes);
    const updated = context.store.transaction(() =>
      context.store.put({ ...field, attributes: { ...attributes } }),
    );
    return sendResource(context, reply, updated);
  });

  app.delete<FieldParams>('/courses/:courseId/customfields/:id', async (request, reply) => {
    Query.read(request, []);
    const field = fieldOf(request);
    context.store.transaction(() => context.store.remove('customfield', field.id));
    return sendNoContent(reply);
  });
}
