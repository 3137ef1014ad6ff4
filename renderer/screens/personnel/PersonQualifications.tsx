// A person's qualifications: list and position (or the central list), rank and when acquired;
// added or changed by exactly one of the interface's pairs (QualificationDialog), removed after a
// confirmation by the pair's second value set to null. Offered only to a login that may change
// people.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import type { CommandArgs, PersonDetail as Person } from '../../contract';
import { sendCommand } from '../../data';
import { errorText } from '../../errors';
import { formatDate } from '../../format';
import { day, textOf, usePersonnelGrants } from './bits';
import { QualificationDialog, removalOf } from './QualificationDialog';

/** A qualification's name as its row shows it. */
const qualiName = (q: Record<string, unknown>) =>
  textOf(q.name) ?? textOf(q.name_kurz) ?? textOf(q.zentralliste_name_kurz) ?? '';

export function Qualifications({ person }: { person: Person }) {
  const { t, i18n } = useTranslation();
  const mayChange = usePersonnelGrants().update;
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<Record<string, unknown> | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const list = Array.isArray(person.attributes.qualifikationen)
    ? (person.attributes.qualifikationen as Record<string, unknown>[]).filter(
        (q) => q && typeof q === 'object',
      )
    : [];
  return (
    <section className="person-section" aria-labelledby="person-qualis">
      <div className="section-head">
        <h3 id="person-qualis">
          {t('personnel.detail.qualifications')} <span className="muted">({list.length})</span>
        </h3>
        {mayChange ? (
          <button
            type="button"
            className="secondary"
            data-testid="quali-add"
            onClick={() => setAdding(true)}
          >
            {t('personnel.quali.add')}
          </button>
        ) : null}
      </div>
      <QualificationDialog personId={person.id} open={adding} onClose={() => setAdding(false)} />
      <ConfirmDialog
        open={removing !== null}
        title={t('personnel.quali.removeTitle')}
        text={t('personnel.quali.removeText', { name: removing ? qualiName(removing) : '' })}
        confirmLabel={t('personnel.quali.remove')}
        destructive
        busy={busy}
        error={error}
        data-testid="quali-remove-confirm"
        onCancel={() => setRemoving(null)}
        onConfirm={() => {
          const edit = removing ? removalOf(removing) : null;
          if (!edit) return;
          setBusy(true);
          void sendCommand('user.update', {
            id: person.id,
            attributes: { qualifikationen: [edit] } as CommandArgs<'user.update'>['attributes'],
          }).then((result) => {
            setBusy(false);
            if (result.ok) setRemoving(null);
            else setError(errorText(result.error, i18n.language));
          });
        }}
      />
      {list.length === 0 ? (
        <p className="muted">{t('personnel.detail.noQualifications')}</p>
      ) : (
        <table className="person-table">
          <thead>
            <tr>
              <th scope="col">{t('personnel.column.qualification')}</th>
              <th scope="col">{t('personnel.column.position')}</th>
              <th scope="col">{t('personnel.column.rank')}</th>
              <th scope="col">{t('personnel.column.acquired')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('personnel.column.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.map((q, index) => {
              const acquired = day(q.erwerb_datum);
              return (
                <tr key={index} data-testid="person-qualification">
                  <td>
                    {textOf(q.name) ?? textOf(q.name_kurz) ?? textOf(q.zentralliste_name_kurz)}
                  </td>
                  <td>
                    {textOf(q.zentralliste_id)
                      ? t('personnel.detail.centralList', { id: textOf(q.zentralliste_id) })
                      : [textOf(q.liste), textOf(q.position) && `(${textOf(q.position)})`]
                          .filter(Boolean)
                          .join(' ')}
                  </td>
                  <td>{textOf(q.rang) ?? textOf(q.zentralliste_rang) ?? textOf(q.name_kurz)}</td>
                  <td>{acquired ? formatDate(acquired, i18n.language) : ''}</td>
                  <td className="row-actions">
                    {mayChange && removalOf(q) ? (
                      <button
                        type="button"
                        className="quiet danger-text"
                        data-testid="quali-remove"
                        aria-label={t('personnel.quali.removeLabel', { name: qualiName(q) })}
                        onClick={() => {
                          setError(null);
                          setRemoving(q);
                        }}
                      >
                        {t('personnel.quali.remove')}
                      </button>
                    ) : null}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}
