// The totals beside the office's hours list: all, per type and per person (the first 50, a click
// narrows the filter to one). Memoised: it paints again only when the totals or their filter change,
// not with every state change of the view around it (a filter typed, the list's rows arriving).
import { memo, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { QueryResults } from '../../contract';
import { formatHours, formatNumber, hoursWords } from '../../format';
import { useHoursUi } from './state';

export const OfficeTotals = memo(function OfficeTotals({
  totals,
  filterKey,
}: {
  totals: QueryResults['hours.totals'] | undefined;
  /** The filter these totals answer, once they do (data-filter: what a bench and tests wait for). */
  filterKey: string | undefined;
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const setFilter = useHoursUi((state) => state.setFilter);
  // Fifty people's rows: the unit's words looked up once.
  const amount = useMemo(
    () => hoursWords((values) => t('hours.unit', values), language),
    [t, language],
  );
  const onlyPerson = t('hoursOffice.totals.onlyPerson');
  const unknownPerson = t('hoursOffice.unknownPerson');
  return (
    <aside
      className="office-hours-totals"
      aria-label={t('hoursOffice.totals.label')}
      data-testid="office-hours-totals"
      data-filter={filterKey}
    >
      <div
        className="hours-total"
        data-testid="office-hours-total"
        data-stunden={totals?.stunden ?? 0}
        data-entries={totals?.entries ?? 0}
      >
        <span className="hours-total-value">{formatHours(totals?.stunden ?? 0, language)}</span>
        <span className="hours-total-label">
          {t('hoursOffice.totals.entries', {
            count: totals?.entries ?? 0,
            n: formatNumber(totals?.entries ?? 0, language),
          })}
        </span>
      </div>
      <section className="office-totals-part" aria-labelledby="office-totals-types">
        <h2 id="office-totals-types">{t('hoursOffice.totals.byType')}</h2>
        <ul className="office-totals-list" tabIndex={0} aria-labelledby="office-totals-types">
          {(totals?.byTyp ?? []).map((row) => (
            <li
              key={row.typId ?? '-'}
              data-testid="office-type-total"
              data-typ={row.typ ?? ''}
              data-stunden={row.stunden}
            >
              <span>{row.typ ?? t('hours.noType')}</span>
              <span className="num">{amount(row.stunden)}</span>
            </li>
          ))}
        </ul>
      </section>
      <section className="office-totals-part" aria-labelledby="office-totals-people">
        <h2 id="office-totals-people">
          {t('hoursOffice.totals.byPerson', {
            n: formatNumber(totals?.persons ?? 0, language),
          })}
        </h2>
        <ul className="office-totals-list office-totals-people">
          {(totals?.byUser ?? []).map((row, place) => (
            // By place: a new filter puts other people first, and each place then changes its
            // words instead of its node moving.
            <li
              key={place}
              data-testid="office-person-total"
              data-user-id={row.userId ?? ''}
              data-stunden={row.stunden}
            >
              <button
                type="button"
                className="quiet"
                title={onlyPerson}
                disabled={row.userId === null}
                onClick={() =>
                  row.userId &&
                  setFilter({
                    userId: row.userId,
                    userText: row.userName ?? row.userId,
                  })
                }
              >
                {row.userName ?? unknownPerson}
              </button>
              <span className="num">{amount(row.stunden)}</span>
            </li>
          ))}
        </ul>
        {totals && totals.persons > totals.byUser.length ? (
          <p className="hint">
            {t('hoursOffice.totals.more', {
              n: formatNumber(totals.persons - totals.byUser.length, language),
            })}
          </p>
        ) : null}
      </section>
    </aside>
  );
});
