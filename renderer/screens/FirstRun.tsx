// The first-run screen: the service's addresses and client id (the real service's preset), checked
// with the contract's schema with the words beside each field; "Anmelden" and "Demo".
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { accountSettings, REAL_SERVICE_PRESET, type AppState, type CoreError } from '../contract';
import { errorText } from '../errors';
import { LanguageSwitch } from '../components/LanguageSwitch';
import { signInWith } from '../sign-in';
import { asCoreError, reportError, useApp } from '../stores';

const FIELDS = ['baseUrl', 'authUrl', 'tokenUrl', 'clientId'] as const;
type Field = (typeof FIELDS)[number];
type Values = Record<Field, string>;
type FieldErrors = Partial<Record<Field, { de: string; en: string }>>;

/** The schema's words per field, German from the issue's `params.de` where it has one. */
function validate(values: Values): FieldErrors {
  const result = accountSettings.safeParse(values);
  if (result.success) return {};
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as Field;
    if (!FIELDS.includes(field) || errors[field]) continue;
    const de = (issue as { params?: { de?: string } }).params?.de ?? issue.message;
    errors[field] = { de, en: issue.message };
  }
  return errors;
}

/** A refusal of the core, with issues per field where it named them. */
function fieldErrorsOf(error: CoreError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues ?? []) {
    const field = issue.path.split('.')[0] as Field;
    if (FIELDS.includes(field) && !errors[field])
      errors[field] = { de: issue.message, en: issue.message };
  }
  return errors;
}

export function AccountForm(props: { initial?: Partial<Values> }) {
  const { t, i18n } = useTranslation();
  const bridge = useApp((store) => store.bridge);
  const busy = useApp((store) => store.busy);
  const [values, setValues] = useState<Values>({ ...REAL_SERVICE_PRESET, ...props.initial });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<CoreError | null>(null);
  const id = useId();
  const language = i18n.language;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!bridge || busy) return;
    const found = validate(values);
    setErrors(found);
    setFormError(null);
    if (Object.keys(found).length > 0) {
      const first = FIELDS.find((field) => found[field]);
      if (first) document.getElementById(`${id}-${first}`)?.focus();
      return;
    }
    useApp.setState({ busy: 'login' });
    try {
      const configured: AppState = await bridge.call('account.configure', values);
      useApp.getState().setState(configured);
      const state = await signInWith(() => bridge.call('account.login', {}));
      if (state) useApp.getState().setState(state);
    } catch (error) {
      const coreError = asCoreError(error);
      const fields = fieldErrorsOf(coreError);
      setErrors(fields);
      // Field by field where the core named them; else in the error list, which outlives this
      // screen (a failed login changes it to "signed out").
      if (Object.keys(fields).length > 0) setFormError(coreError);
      else reportError(coreError);
    } finally {
      useApp.setState({ busy: null });
    }
  };

  return (
    <form className="account-form" onSubmit={submit} noValidate>
      {FIELDS.map((field) => {
        const error = errors[field];
        const hint =
          field === 'baseUrl'
            ? t('firstRun.baseUrlHint')
            : field === 'clientId'
              ? t('firstRun.clientIdHint')
              : null;
        return (
          <div className={error ? 'field invalid' : 'field'} key={field}>
            <label htmlFor={`${id}-${field}`}>{t(`firstRun.${field}`)}</label>
            <input
              id={`${id}-${field}`}
              name={field}
              type={field === 'clientId' ? 'text' : 'url'}
              value={values[field]}
              spellCheck={false}
              autoComplete="off"
              aria-invalid={error ? true : undefined}
              aria-describedby={
                [hint ? `${id}-${field}-hint` : '', error ? `${id}-${field}-error` : '']
                  .filter(Boolean)
                  .join(' ') || undefined
              }
              onChange={(event) => setValues({ ...values, [field]: event.target.value })}
            />
            {hint ? (
              <small id={`${id}-${field}-hint`} className="hint">
                {hint}
              </small>
            ) : null}
            {error ? (
              <small id={`${id}-${field}-error`} className="field-error">
                {language === 'en' ? error.en : error.de}
              </small>
            ) : null}
          </div>
        );
      })}
      {formError ? (
        <p className="form-error" role="alert">
          {errorText(formError, language)}
        </p>
      ) : Object.keys(errors).length > 0 ? (
        <p className="form-error" role="alert">
          {t('firstRun.fixFields')}
        </p>
      ) : null}
      <div className="actions">
        <button type="submit" disabled={busy !== null}>
          {busy === 'login' ? t('firstRun.signingIn') : t('firstRun.signIn')}
        </button>
        <button
          type="button"
          className="secondary"
          onClick={() => {
            setValues({ ...REAL_SERVICE_PRESET, clientId: values.clientId });
            setErrors({});
          }}
        >
          {t('firstRun.preset')}
        </button>
      </div>
    </form>
  );
}

/**
 * Starts the demo as the office (every record) or as a trainer (own courses and hours); the
 * trainer's button is the secondary one unless said otherwise.
 */
export function DemoButton(props: {
  label?: string;
  role?: 'office' | 'trainer';
  secondary?: boolean;
}) {
  const { t } = useTranslation();
  const bridge = useApp((store) => store.bridge);
  const busy = useApp((store) => store.busy);
  const [pressed, setPressed] = useState(false);
  const role = props.role ?? 'office';
  const start = async () => {
    if (!bridge || busy) return;
    useApp.setState({ busy: 'demo' });
    setPressed(true);
    try {
      const state = await signInWith(() => bridge.call('account.demo', { role }));
      if (state) useApp.getState().setState(state);
    } catch (caught) {
      // Shown in the error list: a failed demo login changes the screen to "signed out".
      reportError(caught);
    } finally {
      useApp.setState({ busy: null });
      setPressed(false);
    }
  };
  return (
    <button
      type="button"
      className={(props.secondary ?? role === 'trainer') ? 'secondary' : undefined}
      onClick={start}
      disabled={busy !== null}
      data-testid={role === 'trainer' ? 'demo-trainer' : 'demo'}
    >
      {busy === 'demo' && pressed ? t('firstRun.demoRunning') : (props.label ?? t('firstRun.demo'))}
    </button>
  );
}

export function FirstRun() {
  const { t } = useTranslation();
  return (
    <div className="page first-run">
      <header className="page-header">
        <span className="brand">{t('app.name')}</span>
        <LanguageSwitch />
      </header>
      <main id="main" className="welcome" tabIndex={-1}>
        <h1>{t('firstRun.title')}</h1>
        <p className="lead">{t('firstRun.intro')}</p>
        <div className="cards">
          <section className="card" aria-labelledby="demo-title">
            <h2 id="demo-title">{t('firstRun.demoTitle')}</h2>
            <p>{t('firstRun.demoText')}</p>
            <div className="actions demo-roles">
              <DemoButton />
              <DemoButton role="trainer" label={t('firstRun.demoTrainer')} />
            </div>
          </section>
          <section className="card" aria-labelledby="account-title">
            <h2 id="account-title">{t('firstRun.accountTitle')}</h2>
            <p>{t('firstRun.accountText')}</p>
            <AccountForm />
          </section>
        </div>
      </main>
    </div>
  );
}
