// A walk-in participant: name, birthday, contact, and their company: none, one the replica
// knows (searched as you type, with its UVT) or a new one (sent in `included` as the service
// expects it, with its UVT). Checked with the contract's own rules before anything is queued;
// errors stand next to their fields and everything typed stays.
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Combobox, type ComboboxOption } from '../../components/Combobox';
import { DateField } from '../../components/DateTimeFields';
import { Dialog } from '../../components/Dialog';
import { InputField, SelectField } from '../../components/Field';
import { checkCommand, sendCommand, useQuery, type FieldErrors } from '../../data';
import { datePattern } from '../../date-entry';
import { errorText } from '../../errors';
import { EMPTY_WALK_IN, participationArgs, type WalkIn } from './logic';

/** Which of the form's fields a refused path belongs to. */
const PATHS: Record<string, string> = {
  'attributes.first_name': 'first_name',
  'attributes.last_name': 'last_name',
  'attributes.birthday': 'birthday',
  'attributes.email': 'email',
  'attributes.phone': 'phone',
  'included.0.attributes.name': 'newName',
  'included.0.attributes.street': 'newStreet',
  'included.0.attributes.postal_code': 'newPostalCode',
  'included.0.attributes.city': 'newCity',
  'included.0.attributes.uvt_member_number': 'newMemberNumber',
  'included.0.relationships.uvt.data.id': 'newUvt',
  'relationships.uvt.data.id': 'newUvt',
  'relationships.company.data.id': 'company',
};

function byField(fields: FieldErrors): { fields: Record<string, string>; rest: string[] } {
  const mapped: Record<string, string> = {};
  const rest: string[] = [];
  for (const [path, words] of Object.entries(fields)) {
    const field = PATHS[path];
    if (field) mapped[field] ??= words;
    else rest.push(path ? `${path}: ${words}` : words);
  }
  return { fields: mapped, rest };
}

const FIELD_ORDER = [
  'first_name',
  'last_name',
  'birthday',
  'email',
  'phone',
  'company',
  'newName',
  'newStreet',
  'newPostalCode',
  'newCity',
  'newUvt',
  'newMemberNumber',
];

export function AddParticipantDialog(props: {
  open: boolean;
  courseId: string;
  /** Whether the form starts ticked "present" (a walk-in on a course day). */
  presentByDefault: boolean;
  /** Closed: with the new participation's id when one was added. */
  onClose(createdId: string | null): void;
}) {
  const { t, i18n } = useTranslation();
  const { presentByDefault } = props;
  const [form, setForm] = useState<WalkIn>(EMPTY_WALK_IN);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [general, setGeneral] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    if (!props.open) return;
    setForm({ ...EMPTY_WALK_IN, present: presentByDefault });
    setErrors({});
    setGeneral(null);
    // After the dialog has opened (its own effect): the first name is where typing starts.
    const frame = window.requestAnimationFrame(() =>
      formRef.current?.querySelector<HTMLElement>('[data-testid="add-first_name"]')?.focus(),
    );
    return () => window.cancelAnimationFrame(frame);
  }, [props.open, presentByDefault]);

  const companies = useQuery(
    'companies.list',
    { search: form.companySearch.trim() || undefined, limit: 20 },
    { enabled: props.open && form.mode === 'existing' },
  );
  const reference = useQuery('reference.get', {}, { enabled: props.open && form.mode === 'new' });
  const uvts = useMemo(
    () =>
      [...(reference.data?.uvts ?? [])].sort(
        (a, b) =>
          Number(b.favorite) - Number(a.favorite) ||
          (a.shortName ?? a.name ?? '').localeCompare(b.shortName ?? b.name ?? '', 'de'),
      ),
    [reference.data],
  );
  const companyOptions: ComboboxOption[] = (companies.data ?? []).map((company) => ({
    id: company.id,
    label: company.name ?? t('courses.add.companyNoName'),
    detail: company.uvt,
  }));

  const set = <K extends keyof WalkIn>(key: K, value: WalkIn[K]) => {
    setForm((before) => ({ ...before, [key]: value }));
    if (errors[key as string])
      setErrors((before) => {
        const next = { ...before };
        delete next[key as string];
        return next;
      });
  };

  const focusFirstError = (fields: Record<string, string>) => {
    const first = FIELD_ORDER.find((field) => fields[field]);
    if (!first) return;
    window.requestAnimationFrame(() =>
      formRef.current?.querySelector<HTMLElement>(`[data-testid="add-${first}"]`)?.focus(),
    );
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const local: Record<string, string> = {};
    if (form.mode === 'existing' && !form.company) local.company = t('courses.add.pickCompany');
    const args = participationArgs(props.courseId, form);
    const checked = checkCommand('participation.create', args);
    const mapped = checked ? byField(checked) : { fields: {}, rest: [] };
    // The contract's words are exact; for the usual slips a person gets plainer ones.
    const plain: Record<string, string> = {};
    if (mapped.fields.first_name && !form.first_name.trim())
      plain.first_name = t('courses.add.firstNameMissing');
    if (mapped.fields.last_name && !form.last_name.trim())
      plain.last_name = t('courses.add.lastNameMissing');
    if (mapped.fields.newName && !form.newName.trim())
      plain.newName = t('courses.add.companyNameMissing');
    if (mapped.fields.email) plain.email = t('courses.add.emailInvalid');
    if (mapped.fields.birthday)
      plain.birthday = t('courses.add.birthdayInvalid', { pattern: datePattern(i18n.language) });
    const all = { ...mapped.fields, ...plain, ...local };
    if (Object.keys(all).length > 0 || mapped.rest.length > 0) {
      setErrors(all);
      setGeneral(mapped.rest.length > 0 ? mapped.rest.join('; ') : null);
      focusFirstError(all);
      return;
    }
    setBusy(true);
    const result = await sendCommand('participation.create', args);
    setBusy(false);
    if (result.ok) {
      props.onClose(result.value.id);
      return;
    }
    const refused = byField(result.fields);
    setErrors(refused.fields);
    setGeneral(
      refused.rest.length > 0 || Object.keys(refused.fields).length === 0
        ? errorText(result.error, i18n.language)
        : null,
    );
    focusFirstError(refused.fields);
  };

  return (
    <Dialog
      open={props.open}
      onClose={() => props.onClose(null)}
      labelledBy="add-participant-title"
      className="add-participant"
    >
      <form
        ref={formRef}
        onSubmit={(event) => void submit(event)}
        noValidate
        data-testid="add-participant-dialog"
      >
        <h2 id="add-participant-title">{t('courses.add.title')}</h2>
        <div className="form-grid two">
          <InputField
            label={t('courses.add.firstName')}
            required
            value={form.first_name}
            onChange={(event) => set('first_name', event.target.value)}
            error={errors.first_name}
            autoComplete="off"
            data-testid="add-first_name"
          />
          <InputField
            label={t('courses.add.lastName')}
            required
            value={form.last_name}
            onChange={(event) => set('last_name', event.target.value)}
            error={errors.last_name}
            autoComplete="off"
            data-testid="add-last_name"
          />
          <DateField
            label={t('courses.add.birthday')}
            value={form.birthday}
            onValueChange={(birthday) => set('birthday', birthday)}
            error={errors.birthday}
            hint={t('courses.add.optional')}
            data-testid="add-birthday"
          />
          <InputField
            label={t('courses.add.email')}
            type="email"
            value={form.email}
            onChange={(event) => set('email', event.target.value)}
            error={errors.email}
            autoComplete="off"
            data-testid="add-email"
          />
          <InputField
            label={t('courses.add.phone')}
            type="tel"
            value={form.phone}
            onChange={(event) => set('phone', event.target.value)}
            error={errors.phone}
            autoComplete="off"
            data-testid="add-phone"
          />
          <label className="check add-present">
            <input
              type="checkbox"
              checked={form.present}
              onChange={(event) => set('present', event.target.checked)}
              data-testid="add-present"
            />
            {t('courses.add.present')}
          </label>
        </div>
        <fieldset className="company-choice">
          <legend>{t('courses.add.company')}</legend>
          <div className="segmented">
            {(['none', 'existing', 'new'] as const).map((mode) => (
              <label key={mode} className={form.mode === mode ? 'chosen' : undefined}>
                <input
                  type="radio"
                  name="company-mode"
                  value={mode}
                  checked={form.mode === mode}
                  onChange={() => set('mode', mode)}
                  data-testid={`add-company-${mode}`}
                />
                {t(`courses.add.company_${mode}`)}
              </label>
            ))}
          </div>
          {form.mode === 'existing' ? (
            <Combobox
              label={t('courses.add.companySearch')}
              inputValue={form.companySearch}
              onInputChange={(value) => {
                setForm((before) => ({ ...before, companySearch: value, company: null }));
              }}
              options={companyOptions}
              loading={companies.loading}
              selectedId={form.company?.id ?? null}
              onSelect={(option) => {
                const company = (companies.data ?? []).find((item) => item.id === option.id);
                if (!company) return;
                setForm((before) => ({
                  ...before,
                  companySearch: option.label,
                  company: {
                    id: company.id,
                    name: option.label,
                    uvtId: company.uvtId,
                    uvt: company.uvt,
                  },
                }));
                setErrors((before) => {
                  const next = { ...before };
                  delete next.company;
                  return next;
                });
              }}
              error={errors.company}
              hint={
                form.company
                  ? t('courses.add.companyChosen', {
                      uvt: form.company.uvt ?? t('courses.add.noUvt'),
                    })
                  : t('courses.add.companySearchHint')
              }
              emptyText={t('courses.add.noCompanies')}
              data-testid="add-company"
            />
          ) : null}
          {form.mode === 'new' ? (
            <div className="form-grid two">
              <InputField
                label={t('courses.add.companyName')}
                required
                value={form.newName}
                onChange={(event) => set('newName', event.target.value)}
                error={errors.newName}
                autoComplete="off"
                data-testid="add-newName"
              />
              <InputField
                label={t('courses.add.street')}
                value={form.newStreet}
                onChange={(event) => set('newStreet', event.target.value)}
                error={errors.newStreet}
                autoComplete="off"
                data-testid="add-newStreet"
              />
              <InputField
                label={t('courses.add.postalCode')}
                value={form.newPostalCode}
                onChange={(event) => set('newPostalCode', event.target.value)}
                error={errors.newPostalCode}
                autoComplete="off"
                inputMode="numeric"
                data-testid="add-newPostalCode"
              />
              <InputField
                label={t('courses.add.city')}
                value={form.newCity}
                onChange={(event) => set('newCity', event.target.value)}
                error={errors.newCity}
                autoComplete="off"
                data-testid="add-newCity"
              />
              <SelectField
                label={t('courses.add.uvt')}
                value={form.newUvt}
                onChange={(event) => set('newUvt', event.target.value)}
                error={errors.newUvt}
                data-testid="add-newUvt"
              >
                <option value="">{t('courses.add.noUvtChoice')}</option>
                {uvts.map((uvt) => (
                  <option key={uvt.id} value={uvt.id}>
                    {uvt.favorite ? '★ ' : ''}
                    {[uvt.shortName, uvt.name].filter(Boolean).join(' – ')}
                  </option>
                ))}
              </SelectField>
              <InputField
                label={t('courses.add.memberNumber')}
                value={form.newMemberNumber}
                onChange={(event) => set('newMemberNumber', event.target.value)}
                error={errors.newMemberNumber}
                autoComplete="off"
                data-testid="add-newMemberNumber"
              />
            </div>
          ) : null}
        </fieldset>
        {general ? (
          <p className="form-error" role="alert" data-testid="add-error">
            {general}
          </p>
        ) : null}
        <p className="muted offline-note">{t('courses.add.offlineNote')}</p>
        <div className="actions">
          <button type="submit" disabled={busy} data-testid="add-submit">
            {t('courses.add.submit')}
          </button>
          <button
            type="button"
            className="secondary"
            onClick={() => props.onClose(null)}
            data-testid="add-cancel"
          >
            {t('courses.add.cancel')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
