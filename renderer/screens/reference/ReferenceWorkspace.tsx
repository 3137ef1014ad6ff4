// Stammdaten (issue 23): the service's reference data as the replica holds it, read only and
// offline: the organisation's master data, the signed-in user's own data (user-info), tax rates,
// UVTs (the favourites as /uvts gives them, and those the participations name), course types, and
// every form of the replica by its object. Tabs (←→ between them, the WAI-ARIA tabs pattern); the
// tables scroll by keyboard. A tab of an area the login cannot use is left out, and a line says
// why in the sync's words.
import { useRef, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useAreaBlocked } from '../../areas';
import { FormItem } from '../../components/FormsSection';
import type { AreaName, AreaStatus, QueryResults } from '../../contract';
import { useQuery } from '../../data';
import { errorText } from '../../errors';
import { formatDate, formatHours } from '../../format';
import { useReferenceUi, type ReferenceTab } from './state';
import './reference.css';

type Reference = QueryResults['reference.get'];

/** Each tab and the area of the service its data comes from. */
const TABS: { name: ReferenceTab; area: AreaName }[] = [
  { name: 'organisation', area: 'organisation' },
  { name: 'account', area: 'organisation' },
  { name: 'taxRates', area: 'taxRates' },
  { name: 'uvts', area: 'courses' },
  { name: 'courseTypes', area: 'courses' },
  { name: 'forms', area: 'forms' },
];

export function ReferenceWorkspace() {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const chosen = useReferenceUi((state) => state.tab);
  const setTab = useReferenceUi((state) => state.setTab);
  const tabs = useRef<HTMLDivElement>(null);
  const reference = useQuery('reference.get', {});
  const blocked: Record<AreaName, AreaStatus | null> = {
    organisation: useAreaBlocked('organisation'),
    taxRates: useAreaBlocked('taxRates'),
    courses: useAreaBlocked('courses'),
    forms: useAreaBlocked('forms'),
    personnel: null,
    calendars: null,
    notifications: null,
    hours: null,
  };
  const usable = TABS.filter((tab) => !blocked[tab.area]).map((tab) => tab.name);
  const unusable = [...new Set(TABS.map((tab) => tab.area))]
    .map((area) => blocked[area])
    .filter((status): status is AreaStatus => status !== null);
  const tab = usable.includes(chosen) ? chosen : usable[0];

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    const edge = event.key === 'Home' ? 0 : event.key === 'End' ? usable.length - 1 : null;
    if ((step === 0 && edge === null) || event.altKey || event.ctrlKey || event.metaKey) return;
    if (!tab) return;
    event.preventDefault();
    const next =
      edge !== null
        ? usable[edge]!
        : usable[(usable.indexOf(tab) + step + usable.length) % usable.length]!;
    setTab(next);
    window.requestAnimationFrame(() =>
      tabs.current?.querySelector<HTMLElement>(`[data-tab="${next}"]`)?.focus(),
    );
  };

  return (
    <section
      className="reference"
      aria-labelledby="reference-title"
      data-testid="reference-workspace"
    >
      <div className="reference-head">
        <h1 id="reference-title">{t('reference.title')}</h1>
        <span className="muted">{t('reference.readOnly')}</span>
      </div>
      {usable.length ? (
        <div
          className="reference-tabs"
          role="tablist"
          aria-label={t('reference.tabsLabel')}
          ref={tabs}
          onKeyDown={onKeyDown}
        >
          {usable.map((name) => (
            <button
              key={name}
              type="button"
              role="tab"
              id={`reference-tab-${name}`}
              data-tab={name}
              data-testid={`reference-tab-${name}`}
              aria-selected={tab === name}
              aria-controls={tab === name ? 'reference-panel' : undefined}
              tabIndex={tab === name ? 0 : -1}
              // The workspace starts on its tabs: ←→ move on at once.
              {...(tab === name ? { 'data-workspace-start': true } : {})}
              onClick={() => setTab(name)}
            >
              {t(`reference.tabs.${name}`)}
            </button>
          ))}
        </div>
      ) : null}
      {unusable.map((status) => (
        <p key={status.area} className="warning" data-testid="reference-unavailable">
          {t(`reference.area.${status.area}`)}:{' '}
          {language === 'en' ? status.message.en : status.message.de}
        </p>
      ))}
      {tab ? (
        <div
          className="reference-panel"
          id="reference-panel"
          role="tabpanel"
          aria-labelledby={`reference-tab-${tab}`}
          data-testid={`reference-panel-${tab}`}
        >
          {reference.error ? (
            <p className="form-error" role="alert">
              {errorText(reference.error, language)}
            </p>
          ) : tab === 'forms' ? (
            <AllForms />
          ) : reference.data === undefined ? (
            <p className="muted">{t('reference.loading')}</p>
          ) : (
            <Panel tab={tab} data={reference.data} />
          )}
        </div>
      ) : null}
      <p className="hint">{t('reference.keys')}</p>
    </section>
  );
}

function Panel({ tab, data }: { tab: Exclude<ReferenceTab, 'forms'>; data: Reference }) {
  switch (tab) {
    case 'organisation':
      return <Facts what="organisation" record={data.organisation} />;
    case 'account':
      return <Facts what="account" record={data.user} />;
    case 'taxRates':
      return <TaxRates rates={data.taxRates} />;
    case 'uvts':
      return <Uvts uvts={data.uvts} />;
    case 'courseTypes':
      return <CourseTypes types={data.courseTypes} />;
  }
}

/** The keys shown first, in this order, with words of their own; the rest after, by name. */
const KNOWN_KEYS: Record<'organisation' | 'account', string[]> = {
  organisation: [
    'name',
    'kuerzel',
    'strasse',
    'plz',
    'ort',
    'land',
    'telefon',
    'email',
    'webseite',
    'vereinsregister',
    'module',
  ],
  account: [
    'name',
    'given_name',
    'family_name',
    'preferred_username',
    'email',
    'email_verified',
    'phone_number',
    'birthdate',
    'gender',
    'address',
    'organisation',
    'organisation_key',
    'sub',
    'updated_at',
  ],
};

/** A record's attributes as a definition list; values of any JSON shape in words. */
function Facts({
  what,
  record,
}: {
  what: 'organisation' | 'account';
  record: Record<string, unknown> | null;
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  if (!record)
    return (
      <p className="muted" data-testid="reference-none">
        {t(`reference.${what}.none`)}
      </p>
    );
  const known = KNOWN_KEYS[what];
  const keys = [
    ...known.filter((key) => key in record),
    ...Object.keys(record)
      .filter((key) => !known.includes(key))
      .sort(),
  ];
  const words = (key: string, value: unknown): ReactNode => {
    if (what === 'account' && key === 'updated_at' && typeof value === 'number')
      return formatDate(new Date(value * 1000).toISOString(), language);
    if (what === 'account' && key === 'gender' && typeof value === 'string')
      return t(`reference.account.genders.${value}`, { defaultValue: value });
    return valueInWords(value, t, language);
  };
  const rows = keys
    .map((key) => [key, words(key, record[key])] as const)
    .filter(([, value]) => value !== null && value !== '');
  return (
    <dl className="reference-facts" data-testid={`reference-${what}`}>
      {rows.map(([key, value]) => (
        <div key={key} className="reference-fact">
          <dt>{t(`reference.${what}.keys.${key}`, { defaultValue: wordsOfKey(key) })}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** "organisation_key" → "Organisation key": a key the screen has no words for. */
function wordsOfKey(key: string): string {
  const spaced = key.replace(/[_-]+/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2');
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

function valueInWords(value: unknown, t: (key: string) => string, language: string): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'boolean') return t(value ? 'reference.yes' : 'reference.no');
  if (typeof value === 'number') return formatHours(value, language);
  if (typeof value === 'string')
    return /^\d{4}-\d{2}-\d{2}$/.test(value) ? formatDate(value, language) : value;
  if (Array.isArray(value))
    return (
      value
        .map((item) => valueInWords(item, t, language))
        .filter(Boolean)
        .join(', ') || null
    );
  if (typeof value === 'object') {
    const object = value as Record<string, unknown>;
    // An address of the user-info: its "formatted" says it all.
    if (typeof object.formatted === 'string' && object.formatted.trim())
      return object.formatted.replace(/\s*\n\s*/g, ', ');
    return (
      Object.entries(object)
        .map(([key, item]) => {
          const text = valueInWords(item, t, language);
          return text ? `${wordsOfKey(key)}: ${text}` : null;
        })
        .filter(Boolean)
        .join('; ') || null
    );
  }
  return String(value);
}

/** A table in a region of its own that takes the focus, so that the keys scroll it. */
function TableRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="reference-table-region" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}

function TaxRates({ rates }: { rates: Reference['taxRates'] }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  if (!rates.length) return <p className="muted">{t('reference.taxRates.none')}</p>;
  return (
    <TableRegion label={t('reference.tabs.taxRates')}>
      <table className="reference-table" data-testid="reference-tax-rates">
        <caption className="visually-hidden">{t('reference.tabs.taxRates')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('reference.taxRates.name')}</th>
            <th scope="col" className="number">
              {t('reference.taxRates.rate')}
            </th>
            <th scope="col">{t('reference.taxRates.validFrom')}</th>
          </tr>
        </thead>
        <tbody>
          {rates.map((rate) => (
            <tr key={rate.id} data-testid="tax-rate-row">
              <th scope="row">{rate.bezeichnung ?? '—'}</th>
              <td className="number">
                {rate.satz === null ? '—' : `${formatHours(rate.satz, language)} %`}
              </td>
              <td>{rate.gueltigAb ? formatDate(rate.gueltigAb, language) : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}

function Uvts({ uvts }: { uvts: Reference['uvts'] }) {
  const { t } = useTranslation();
  if (!uvts.length) return <p className="muted">{t('reference.uvts.none')}</p>;
  const favourites = uvts.filter((uvt) => uvt.favorite).length;
  return (
    <>
      <p className="hint">{t('reference.uvts.intro', { count: uvts.length, favourites })}</p>
      <TableRegion label={t('reference.tabs.uvts')}>
        <table className="reference-table" data-testid="reference-uvts">
          <caption className="visually-hidden">{t('reference.tabs.uvts')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('reference.uvts.name')}</th>
              <th scope="col">{t('reference.uvts.short')}</th>
              <th scope="col">{t('reference.uvts.source')}</th>
            </tr>
          </thead>
          <tbody>
            {uvts.map((uvt) => (
              <tr
                key={uvt.id}
                data-testid="uvt-row"
                data-uvt-id={uvt.id}
                data-favorite={uvt.favorite}
              >
                <th scope="row">
                  {uvt.known ? (uvt.name ?? '—') : t('reference.uvts.unknown', { id: uvt.id })}
                </th>
                <td>{uvt.shortName ?? '—'}</td>
                <td>
                  {uvt.favorite ? (
                    <span className="badge">{t('reference.uvts.favourite')}</span>
                  ) : uvt.known ? (
                    t('reference.uvts.named')
                  ) : (
                    t('reference.uvts.companyOnly')
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableRegion>
    </>
  );
}

function CourseTypes({ types }: { types: Reference['courseTypes'] }) {
  const { t } = useTranslation();
  if (!types.length) return <p className="muted">{t('reference.courseTypes.none')}</p>;
  return (
    <TableRegion label={t('reference.tabs.courseTypes')}>
      <table className="reference-table" data-testid="reference-course-types">
        <caption className="visually-hidden">{t('reference.tabs.courseTypes')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('reference.courseTypes.name')}</th>
            <th scope="col">{t('reference.courseTypes.short')}</th>
          </tr>
        </thead>
        <tbody>
          {types.map((type) => (
            <tr key={type.id} data-testid="course-type-row">
              <th scope="row">{type.name ?? '—'}</th>
              <td>{type.shortName ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}

/** Every form of the replica, by kind of object and then by object. */
function AllForms() {
  const { t, i18n } = useTranslation();
  const forms = useQuery('forms.all', {});
  if (forms.error)
    return (
      <p className="form-error" role="alert">
        {errorText(forms.error, i18n.language)}
      </p>
    );
  if (forms.data === undefined) return <p className="muted">{t('reference.loading')}</p>;
  if (!forms.data.length) return <p className="muted">{t('reference.forms.none')}</p>;
  const kinds = [...new Set(forms.data.map((object) => object.typ))];
  return (
    <TableRegion label={t('reference.tabs.forms')}>
      <p className="hint">{t('reference.forms.intro')}</p>
      {kinds.map((kind) => (
        <section
          key={kind}
          className="forms-kind"
          aria-labelledby={`forms-kind-${kind}`}
          data-testid="forms-kind"
          data-kind={kind}
        >
          <h2 id={`forms-kind-${kind}`}>{t(`reference.forms.kinds.${kind}`)}</h2>
          <dl className="forms-objects">
            {forms
              .data!.filter((object) => object.typ === kind)
              .map((object) => (
                <div key={object.id} className="forms-object" data-testid="forms-object">
                  <dt>{object.label ?? t('reference.forms.objectId', { id: object.id })}</dt>
                  <dd>
                    <ul className="forms-list">
                      {object.forms.map((form, index) => (
                        <FormItem key={index} form={form} />
                      ))}
                    </ul>
                  </dd>
                </div>
              ))}
          </dl>
        </section>
      ))}
    </TableRegion>
  );
}
