// The demo's steps while it starts (AppState.demoStart), from the moment it was asked for: its
// service starting (the first start makes the sample data, a while for a large demo), its login,
// then the first sync, whose progress the sync indicator shows; the current step with its seconds.
import { useTranslation } from 'react-i18next';
import type { AppState } from '../contract';
import { useNow } from '../format';

const STEPS = ['service', 'login', 'sync'] as const;

export function DemoSteps({ start }: { start: NonNullable<AppState['demoStart']> }) {
  const { t } = useTranslation();
  const now = useNow(1_000);
  const seconds = Math.max(0, Math.floor((now - Date.parse(start.since)) / 1000));
  const current = STEPS.indexOf(start.step);
  return (
    <>
      <ol className="demo-steps">
        {STEPS.map((step, index) => (
          <li
            key={step}
            data-state={index < current ? 'done' : index === current ? 'now' : 'next'}
            aria-current={index === current ? 'step' : undefined}
          >
            {t(`signingIn.demoSteps.${step}`)}
          </li>
        ))}
      </ol>
      {/* The step in words is announced; its seconds, changing every second, are not. */}
      <p role="status" data-testid="demo-step">
        {t(`signingIn.demoNow.${start.step}`)}
      </p>
      <p className="muted" aria-hidden="true">
        {t('signingIn.elapsed', { seconds })}
      </p>
    </>
  );
}
