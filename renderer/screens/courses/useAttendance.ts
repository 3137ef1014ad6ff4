// The participants' state at the venue, apart from how it is shown: the rows as the replica has
// them (a change shows at once: its command answers the row, laid into the list until the list
// is read again), the counts, attendance one by one and "Alle anwesend" with its undo, and the
// texts typed in a row (certificate number, comment) until they are stored, with their errors.
import { useEffect, useMemo, useRef, useState } from 'react';
import type { CommandArgs, ParticipationItem, QueryResults } from '../../contract';
import { sendCommand, type QueryState } from '../../data';
import { errorText } from '../../errors';
import { attendanceChange, attendanceOf, OPEN_STATUSES, type Attendance } from './logic';

export type Change = NonNullable<CommandArgs<'participation.update'>['attributes']>;
export type EditField = 'certificate_number' | 'comment';

/** A row's text field's key in drafts and errors; `${id}|row` holds the row's own error. */
export const fieldKey = (id: string, field: EditField | 'row') => `${id}|${field}`;

export function str(value: unknown): string {
  return typeof value === 'string'
    ? value
    : value === null || value === undefined
      ? ''
      : String(value);
}

function without<T>(record: Record<string, T>, key: string): Record<string, T> {
  if (!(key in record)) return record;
  const next = { ...record };
  delete next[key];
  return next;
}

export function useAttendance(input: {
  courseId: string;
  query: QueryState<QueryResults['participations.list']>;
  showCancelled: boolean;
  language: string;
}) {
  const { courseId, query, showCancelled, language } = input;
  const all = query.data;
  /** Texts typed in a row's inputs and not yet stored (kept on an error). */
  const [drafts, setDrafts] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  /** Fields whose draft Escape threw away: their blur right after must not send it. */
  const reverted = useRef(new Set<string>());
  const [lastBulk, setLastBulk] = useState<{ id: string; status: string }[] | null>(null);
  const [bulkBusy, setBulkBusy] = useState(false);
  /** The status a row had before its attendance was taken: "offen" goes back to it. */
  const openStatus = useRef(new Map<string, string>());

  // The rows as the replica has them.
  const rows = useMemo(() => {
    const items = all ?? [];
    const live = items.filter((item) => item.status !== 'cancelled');
    const cancelled = items.filter((item) => item.status === 'cancelled');
    return { live, cancelled, shown: showCancelled ? [...live, ...cancelled] : live };
  }, [all, showCancelled]);

  /** A row as its command answered it, shown at once (the list's next reading brings the rest). */
  const show = (record: ParticipationItem | null) => {
    if (record) query.update((list) => list.map((item) => (item.id === record.id ? record : item)));
  };

  // What the replica shows now no longer needs to be held: drafts equal to the stored value go.
  useEffect(() => {
    if (!all) return;
    const byId = new Map(all.map((item) => [item.id, item]));
    setDrafts((before) => {
      let changed = false;
      const next: Record<string, string> = {};
      for (const [key, value] of Object.entries(before)) {
        const [id, field] = key.split('|') as [string, EditField];
        const item = byId.get(id);
        if (item && str(item.attributes[field]) === value && !errors[key]) {
          changed = true;
          continue;
        }
        next[key] = value;
      }
      return changed ? next : before;
    });
  }, [all]);

  const counts = useMemo(() => {
    let present = 0;
    let absent = 0;
    let open = 0;
    for (const row of rows.live) {
      const state = attendanceOf(row);
      if (state === 'present') present++;
      else if (state === 'absent') absent++;
      else open++;
    }
    return { present, absent, open };
  }, [rows.live]);

  const update = async (row: ParticipationItem, change: Change): Promise<boolean> => {
    const result = await sendCommand('participation.update', {
      courseId,
      id: row.id,
      attributes: change,
    });
    const key = fieldKey(row.id, 'row');
    if (!result.ok) {
      setErrors((before) => ({ ...before, [key]: errorText(result.error, language) }));
      return false;
    }
    show(result.value.record);
    setErrors((before) => without(before, key));
    return true;
  };

  const setAttendance = (row: ParticipationItem, next: Attendance) => {
    if (row.status === 'cancelled') return;
    if (row.status && OPEN_STATUSES.has(row.status)) openStatus.current.set(row.id, row.status);
    setLastBulk(null);
    void update(row, attendanceChange(next, openStatus.current.get(row.id)));
  };

  const allPresent = async () => {
    const open = rows.live.filter((row) => attendanceOf(row) === 'open');
    if (open.length === 0) return;
    setBulkBusy(true);
    const undo: { id: string; status: string }[] = [];
    for (const row of open) {
      const status = row.status && OPEN_STATUSES.has(row.status) ? row.status : 'registered';
      openStatus.current.set(row.id, status);
      if (await update(row, { attended: true, status: 'attended' }))
        undo.push({ id: row.id, status });
    }
    setBulkBusy(false);
    setLastBulk(undo);
  };

  const undoBulk = async () => {
    if (!lastBulk) return;
    setBulkBusy(true);
    const byId = new Map(rows.live.map((row) => [row.id, row]));
    for (const { id, status } of lastBulk) {
      const row = byId.get(id);
      if (row && attendanceOf(row) === 'present')
        await update(row, { attended: false, status: status as Change['status'] });
    }
    setBulkBusy(false);
    setLastBulk(null);
  };

  const setDraft = (row: ParticipationItem, field: EditField, value: string) =>
    setDrafts((before) => ({ ...before, [fieldKey(row.id, field)]: value }));

  const commitText = async (row: ParticipationItem, field: EditField) => {
    const key = fieldKey(row.id, field);
    // Escape's revert moves the focus on, and the blur comes before the draft is gone: not sent.
    if (reverted.current.delete(key)) return;
    const draft = drafts[key];
    if (draft === undefined || draft === str(row.attributes[field])) {
      setErrors((before) => without(before, key));
      return;
    }
    const result = await sendCommand('participation.update', {
      courseId,
      id: row.id,
      attributes: { [field]: draft },
    });
    if (result.ok) show(result.value.record);
    setErrors((before) => {
      const next = without(before, key);
      if (!result.ok)
        next[key] = result.fields[`attributes.${field}`] ?? errorText(result.error, language);
      return next;
    });
  };

  const revertText = (row: ParticipationItem, field: EditField) => {
    const key = fieldKey(row.id, field);
    if (drafts[key] !== undefined) reverted.current.add(key);
    setDrafts((before) => without(before, key));
    setErrors((before) => without(before, key));
  };

  return {
    rows,
    counts,
    drafts,
    errors,
    lastBulk,
    bulkBusy,
    update,
    setAttendance,
    allPresent,
    undoBulk,
    setDraft,
    commitText,
    revertText,
  };
}
