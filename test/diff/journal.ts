// When the service last changed each record, from the sandbox's change journal (admin
// interface, GET /_admin/changes): the record's own writes and the writes of records pointing
// at it (a moved date concerns its course, a new participation its course's count).
import type { AdminClient } from './hands';

export interface ChangeTime {
  /** The sandbox clock's time of the latest write concerning the record (ms). */
  at: number;
  /** Whether the record's own latest write stamped its updatedAt (false: a restore, or no bookkeeping). */
  touched: boolean;
  /** What the latest write concerning it was: its own put or remove, or one of a record naming it. */
  what: 'put' | 'remove' | 'referred';
}

interface JournalEntry {
  seq: number;
  at: string;
  op: 'put' | 'remove';
  type: string;
  id: string;
  touched: boolean;
  refs: { type: string; id: string }[];
}

export class ChangeTimes {
  private readonly own = new Map<string, ChangeTime>();
  private readonly referring = new Map<string, number>();
  private last = 0;
  private anyForm: ChangeTime | undefined;

  /** Reads the journal's new entries. */
  async update(admin: AdminClient): Promise<void> {
    const answer = (await admin.call('GET', `/changes?after=${this.last}`)) as {
      changes: JournalEntry[];
      last: number;
    };
    for (const entry of answer.changes) {
      const at = Date.parse(entry.at);
      // A form names its owner in its attributes, which the journal does not carry: a form
      // written counts for every owner's list (`forms:typ:id`).
      if (entry.type === 'formular') this.anyForm = { at, touched: entry.touched, what: entry.op };
      this.own.set(`${entry.type}:${entry.id}`, { at, touched: entry.touched, what: entry.op });
      for (const ref of entry.refs) this.referring.set(`${ref.type}:${ref.id}`, at);
    }
    this.last = answer.last;
  }

  /** The latest change concerning `type:id`, or undefined when the run has not touched it. */
  of(key: string): ChangeTime | undefined {
    const own = key.startsWith('forms:') ? this.anyForm : this.own.get(key);
    const referring = this.referring.get(key);
    if (referring === undefined || (own && own.at >= referring)) return own;
    return { at: referring, touched: own?.touched ?? true, what: 'referred' };
  }
}
