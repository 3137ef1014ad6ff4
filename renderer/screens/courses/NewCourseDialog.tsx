// A new course (POST /courses): its course type, one or more dates (day, start, end), a new
// location, the maximum of participants, and maybe a client and a trainer. Checked with the
// contract's own rules before anything is queued; errors stand next to their fields and
// everything typed stays. The form says that such a course is not forwarded to external systems,
// as the interface says; offline it is created here at once and sent later.
import { memo, useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { DateField, TimeField } from '../../components/DateTimeFields';
import { Dialog } from '../../components/Dialog';
import { InputField, SelectField } from '../../components/Field';
import { toServiceDateTime, type CommandArgs } from '../../contract';
import { checkCommand, sendCommand, useQuery, type FieldErrors } from '../../data';
import { datePattern, ISO_DAY, TIME_OF_DAY } from '../../date-entry';
import { errorText } from '../../errors';

interface DateRow {
  key: number;
  day: string;
  from: string;
  to: string;
}

interface Draft {
  courseType: string;
  title: string;
  dates: DateRow[];
  description: string;
  street: string;
  postalCode: string;
  city: string;
  max: string;
  client: string;
  trainer: string;
}

let nextKey = 1;
const newDate = (): DateRow => ({ key: nextKey++, day: '', from: '09:00', to: '16:30' });
const emptyDraft = (): Draft => ({
  courseType: '',
  title: '',
  dates: [newDate()],
  description: '',
  street: '',
  postalCode: '',
  city: '',
  max: '',
  client: '',
  trainer: '',
});

const ADDRESS_FIELDS = {
  description: 'description',
  street: 'street',
  postalCode: 'postal_code',
  city: 'city',
} as const;

/** The command's arguments: dates as `new-1…`, the location after them. */
function courseArgs(draft: Draft, typeName: string | null): CommandArgs<'course.create'> {
  const dates = draft.dates.map((date, index) => ({
    type: 'course_date' as const,
    id: `new-${index + 1}`,
    attributes: {
      from:
        ISO_DAY.test(date.day) && TIME_OF_DAY.test(date.from)
          ? toServiceDateTime(date.day, date.from)
          : '',
      to:
        ISO_DAY.test(date.day) && TIME_OF_DAY.test(date.to)
          ? toServiceDateTime(date.day, date.to)
          : '',
    },
  }));
  const address: Record<string, string> = {};
  for (const [field, attribute] of Object.entries(ADDRESS_FIELDS)) {
    const value = draft[field as keyof typeof ADDRESS_FIELDS].trim();
    if (value) address[attribute] = value;
  }
  const locationId = `new-${dates.length + 1}`;
  const hasLocation = Object.keys(address).length > 0;
  const attributes: NonNullable<CommandArgs<'course.create'>['attributes']> = {};
  const title = draft.title.trim() || typeName?.trim();
  if (title) attributes.title = title;
  if (draft.max.trim() !== '') attributes.max_participants = Number(draft.max.trim());
  return {
    attributes,
    relationships: {
      ...(draft.courseType
        ? { course_type: { data: { type: 'course_type', id: draft.courseType } } }
        : {}),
      dates: { data: dates.map(({ type, id }) => ({ type, id })) },
      ...(hasLocation ? { location: { data: { type: 'address', id: locationId } } } : {}),
      ...(draft.client ? { client: { data: { type: 'client', id: draft.client } } } : {}),
      ...(draft.trainer ? { trainers: { data: [{ type: 'user', id: draft.trainer }] } } : {}),
    } as CommandArgs<'course.create'>['relationships'],
    included: [
      ...dates,
      ...(hasLocation ? [{ type: 'address' as const, id: locationId, attributes: address }] : []),
    ],
  };
}

/** Which field of the form a refused path belongs to (`date-<i>-from` for a date's). */
function fieldOf(path: string, dates: number): string | null {
  if (path.startsWith('relationships.course_type')) return 'courseType';
  if (path === 'attributes.title') return 'title';
  if (path === 'attributes.max_participants') return 'max';
  if (path.startsWith('relationships.client')) return 'client';
  if (path.startsWith('relationships.trainers')) return 'trainer';
  const included = /^included\.(\d+)\.attributes\.(\w+)/.exec(path);
  if (included) {
    const index = Number(included[1]);
    if (index < dates) return `date-${index}-${included[2] === 'to' ? 'to' : 'from'}`;
    const attribute = included[2];
    const field = Object.entries(ADDRESS_FIELDS).find(([, name]) => name === attribute);
    return field ? field[0] : 'street';
  }
  const date = /^relationships\.dates\.data\.(\d+)/.exec(path);
  if (date && Number(date[1]) < dates) return `date-${date[1]}-from`;
  return null;
}

/** Drawn again when opened or closed, not with every change of the list behind it. */
export const NewCourseDialog = memo(function NewCourseDialog(props: {
  open: boolean;
  onClose(createdId: string | null): void;
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const [draft, setDraft] = useState<Draft>(emptyDraft);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [general, setGeneral] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const reference = useQuery('reference.get', {}, { enabled: props.open });
  const clients = useQuery('clients.list', {}, { enabled: props.open });
  const trainers = useQuery('courses.trainers', {}, { enabled: props.open });
  const types = reference.data?.courseTypes ?? [];

  useEffect(() => {
    if (!props.open) return;
    setDraft(emptyDraft());
    setErrors({});
    setGeneral(null);
    const frame = window.requestAnimationFrame(() =>
      formRef.current?.querySelector<HTMLElement>('[data-testid="new-course-type"]')?.focus(),
    );
    return () => window.cancelAnimationFrame(frame);
  }, [props.open]);

  const clear = (field: string) =>
    setErrors((before) => {
      if (!before[field]) return before;
      const next = { ...before };
      delete next[field];
      return next;
    });
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => {
    setDraft((before) => ({ ...before, [key]: value }));
    clear(key);
  };
  const setDate = (index: number, change: Partial<DateRow>) => {
    setDraft((before) => ({
      ...before,
      dates: before.dates.map((date, at) => (at === index ? { ...date, ...change } : date)),
    }));
    setErrors((before) => {
      const next = { ...before };
      for (const key of Object.keys(next)) if (key.startsWith(`date-${index}-`)) delete next[key];
      return next;
    });
  };

  const focusFirstError = (fields: Record<string, string>) => {
    const first = Object.keys(fields)[0];
    if (!first) return;
    window.requestAnimationFrame(() =>
      formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(),
    );
  };

  /** The usual slips in plain words, before the contract's exact ones. */
  const localErrors = (): Record<string, string> => {
    const found: Record<string, string> = {};
    if (!draft.courseType) found.courseType = t('courses.create.typeMissing');
    draft.dates.forEach((date, index) => {
      if (!ISO_DAY.test(date.day))
        found[`date-${index}-day`] = t('courses.create.dayMissing', {
          pattern: datePattern(language),
        });
      if (!TIME_OF_DAY.test(date.from))
        found[`date-${index}-from`] = t('courses.create.timeMissing');
      if (!TIME_OF_DAY.test(date.to)) found[`date-${index}-to`] = t('courses.create.timeMissing');
    });
    const max = draft.max.trim();
    if (max !== '' && !/^\d+$/.test(max)) found.max = t('courses.create.maxWrong');
    return found;
  };

  const mapped = (fields: FieldErrors) => {
    const byField: Record<string, string> = {};
    const rest: string[] = [];
    for (const [path, words] of Object.entries(fields)) {
      const field = fieldOf(path, draft.dates.length);
      if (field) byField[field] ??= words;
      else rest.push(path ? `${path}: ${words}` : words);
    }
    return { byField, rest };
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const typeName = types.find((type) => type.id === draft.courseType)?.name ?? null;
    const args = courseArgs(draft, typeName);
    const checked = checkCommand('course.create', args);
    const contract = checked ? mapped(checked) : { byField: {}, rest: [] };
    const local = localErrors();
    // A date that is no date yet: its plain words, not the contract's about the instant.
    for (const key of Object.keys(contract.byField)) {
      const date = /^date-(\d+)-/.exec(key);
      if (date && Object.keys(local).some((field) => field.startsWith(`date-${date[1]}-`)))
        delete contract.byField[key];
    }
    const all = { ...contract.byField, ...local };
    if (Object.keys(all).length > 0 || contract.rest.length > 0) {
      setErrors(all);
      setGeneral(contract.rest.length > 0 ? contract.rest.join('; ') : null);
      focusFirstError(all);
      return;
    }
    setBusy(true);
    const result = await sendCommand('course.create', args);
    setBusy(false);
    if (result.ok) {
      props.onClose(result.value.id);
      return;
    }
    const refused = mapped(result.fields);
    setErrors(refused.byField);
    setGeneral(
      refused.rest.length > 0 || Object.keys(refused.byField).length === 0
        ? errorText(result.error, language)
        : null,
    );
    focusFirstError(refused.byField);
  };

  return (
    <Dialog
      open={props.open}
      onClose={() => props.onClose(null)}
      labelledBy="new-course-title"
      className="new-course"
    >
      <form
        ref={formRef}
        onSubmit={(event) => void submit(event)}
        noValidate
        data-testid="new-course-dialog"
      >
        <h2 id="new-course-title">{t('courses.create.title')}</h2>
        <p className="new-course-external" data-testid="new-course-external">
          {t('courses.create.external')}
        </p>
        <div className="form-grid two">
          <SelectField
            label={t('courses.create.courseType')}
            required
            value={draft.courseType}
            onChange={(event) => set('courseType', event.target.value)}
            error={errors.courseType}
            data-testid="new-course-type"
          >
            <option value="">{t('courses.create.chooseType')}</option>
            {types.map((type) => (
              <option key={type.id} value={type.id}>
                {[type.shortName, type.name].filter(Boolean).join(' – ')}
              </option>
            ))}
          </SelectField>
          <InputField
            label={t('courses.create.courseTitle')}
            value={draft.title}
            onChange={(event) => set('title', event.target.value)}
            error={errors.title}
            hint={t('courses.create.titleHint')}
            autoComplete="off"
            data-testid="new-course-title"
          />
        </div>
        <fieldset className="new-course-dates">
          <legend>{t('courses.create.dates')}</legend>
          {draft.dates.map((date, index) => (
            <div
              key={date.key}
              className="new-course-date"
              role="group"
              aria-label={t('courses.create.date', { n: index + 1 })}
              data-testid="new-course-date"
            >
              <DateField
                label={t('courses.create.day')}
                required
                value={date.day}
                onValueChange={(day) => setDate(index, { day })}
                error={errors[`date-${index}-day`]}
                data-testid={`new-course-day-${index}`}
              />
              <TimeField
                label={t('courses.create.from')}
                required
                value={date.from}
                onValueChange={(from) => setDate(index, { from })}
                error={errors[`date-${index}-from`]}
                data-testid={`new-course-from-${index}`}
              />
              <TimeField
                label={t('courses.create.to')}
                required
                value={date.to}
                onValueChange={(to) => setDate(index, { to })}
                error={errors[`date-${index}-to`]}
                data-testid={`new-course-to-${index}`}
              />
              {draft.dates.length > 1 ? (
                <button
                  type="button"
                  className="secondary new-course-remove"
                  aria-label={t('courses.create.removeDate', { n: index + 1 })}
                  title={t('courses.create.removeDate', { n: index + 1 })}
                  onClick={() =>
                    setDraft((before) => ({
                      ...before,
                      dates: before.dates.filter((_, at) => at !== index),
                    }))
                  }
                >
                  ×
                </button>
              ) : null}
            </div>
          ))}
          <button
            type="button"
            className="secondary"
            data-testid="new-course-add-date"
            onClick={() =>
              setDraft((before) => ({ ...before, dates: [...before.dates, newDate()] }))
            }
          >
            + {t('courses.create.addDate')}
          </button>
        </fieldset>
        <fieldset className="new-course-location">
          <legend>
            {t('courses.create.location')}{' '}
            <span className="hint">{t('courses.create.locationHint')}</span>
          </legend>
          <div className="form-grid">
            <InputField
              label={t('courses.create.description')}
              value={draft.description}
              onChange={(event) => set('description', event.target.value)}
              error={errors.description}
              autoComplete="off"
              data-testid="new-course-description"
            />
            <InputField
              label={t('courses.create.street')}
              value={draft.street}
              onChange={(event) => set('street', event.target.value)}
              error={errors.street}
              autoComplete="off"
              data-testid="new-course-street"
            />
            <InputField
              label={t('courses.create.postalCode')}
              value={draft.postalCode}
              onChange={(event) => set('postalCode', event.target.value)}
              error={errors.postalCode}
              autoComplete="off"
              inputMode="numeric"
              data-testid="new-course-postalCode"
            />
            <InputField
              label={t('courses.create.city')}
              value={draft.city}
              onChange={(event) => set('city', event.target.value)}
              error={errors.city}
              autoComplete="off"
              data-testid="new-course-city"
            />
          </div>
        </fieldset>
        <div className="form-grid three">
          <InputField
            label={t('courses.create.max')}
            value={draft.max}
            onChange={(event) => set('max', event.target.value)}
            error={errors.max}
            hint={t('courses.create.optional')}
            inputMode="numeric"
            autoComplete="off"
            data-testid="new-course-max"
          />
          <SelectField
            label={t('courses.create.client')}
            value={draft.client}
            onChange={(event) => set('client', event.target.value)}
            error={errors.client}
            data-testid="new-course-client"
          >
            <option value="">{t('courses.create.noClient')}</option>
            {(clients.data ?? []).map((client) => (
              <option key={client.id} value={client.id}>
                {client.name ?? client.id}
              </option>
            ))}
          </SelectField>
          <SelectField
            label={t('courses.create.trainer')}
            value={draft.trainer}
            onChange={(event) => set('trainer', event.target.value)}
            error={errors.trainer}
            data-testid="new-course-trainer"
          >
            <option value="">{t('courses.create.noTrainer')}</option>
            {(trainers.data ?? [])
              .filter((trainer) => trainer.name !== null)
              .map((trainer) => (
                <option key={trainer.id} value={trainer.id}>
                  {trainer.name}
                </option>
              ))}
          </SelectField>
        </div>
        {general ? (
          <p className="form-error" role="alert" data-testid="new-course-error">
            {general}
          </p>
        ) : null}
        <p className="muted offline-note">{t('courses.create.offlineNote')}</p>
        <div className="actions">
          <button type="submit" disabled={busy} data-testid="new-course-submit">
            {t('courses.create.submit')}
          </button>
          <button
            type="button"
            className="secondary"
            onClick={() => props.onClose(null)}
            data-testid="new-course-cancel"
          >
            {t('courses.create.cancel')}
          </button>
        </div>
      </form>
    </Dialog>
  );
});
