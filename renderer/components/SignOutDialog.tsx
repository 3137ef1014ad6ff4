// Sign-out: says how many changes are not yet sent (and refused), keeps them unless the person
// chooses to delete the data on this computer, then says what would be lost.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSignOut } from '../sign-in';
import { reportError, useApp } from '../stores';
import { Dialog } from './Dialog';

export function SignOutDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const bridge = useApp((store) => store.bridge);
  const [loss, setLoss] = useState<{ pending: number; parked: number } | null>(null);
  const [deleteLocal, setDeleteLocal] = useState(false);
  const [running, setRunning] = useState(false);

  useEffect(() => {
    if (!open || !bridge) return;
    setLoss(null);
    setDeleteLocal(false);
    let current = true;
    bridge.call('account.pendingLoss', {}).then((value) => {
      if (current) setLoss(value);
    }, reportError);
    return () => {
      current = false;
    };
  }, [open, bridge]);

  const lost = loss ? loss.pending + loss.parked : 0;
  const signOut = () => {
    if (!bridge) return;
    setRunning(true);
    useApp.setState({ busy: 'logout' });
    bridge
      .call('account.logout', { deleteLocalData: deleteLocal })
      .then((state) => {
        useSignOut.setState({ deletedLocalData: deleteLocal });
        useApp.getState().setState(state);
        onClose();
      }, reportError)
      .finally(() => {
        setRunning(false);
        useApp.setState({ busy: null });
      });
  };

  return (
    <Dialog open={open} onClose={onClose} labelledBy="sign-out-title" className="sign-out">
      <h2 id="sign-out-title">{t('signOut.title')}</h2>
      {loss === null ? (
        <p aria-busy="true">{t('signOut.checking')}</p>
      ) : (
        <div data-testid="sign-out-loss" data-pending={loss.pending} data-parked={loss.parked}>
          {lost === 0 ? <p>{t('signOut.nothingPending')}</p> : null}
          {loss.pending > 0 ? <p>{t('signOut.pending', { count: loss.pending })}</p> : null}
          {loss.parked > 0 ? <p>{t('signOut.parked', { count: loss.parked })}</p> : null}
          <p>{deleteLocal ? t('signOut.deleteText') : t('signOut.keepText')}</p>
          <label className="check">
            <input
              type="checkbox"
              checked={deleteLocal}
              onChange={(event) => setDeleteLocal(event.target.checked)}
            />
            {t('signOut.deleteLocal')}
          </label>
          {deleteLocal && lost > 0 ? (
            <p className="warning" role="alert">
              {t('signOut.deleteWarning', { count: lost })}
            </p>
          ) : null}
        </div>
      )}
      <div className="actions">
        <button
          type="button"
          className={deleteLocal ? 'danger' : undefined}
          onClick={signOut}
          disabled={running || loss === null}
        >
          {deleteLocal ? t('signOut.confirmDelete') : t('signOut.confirm')}
        </button>
        <button type="button" className="secondary" onClick={onClose} disabled={running}>
          {t('signOut.cancel')}
        </button>
      </div>
    </Dialog>
  );
}
