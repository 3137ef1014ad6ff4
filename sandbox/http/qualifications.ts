// Qualification edits of user_post/user_patch/user_put. Each edit names one qualification list
// and one rank by exactly one of four pairs:
//   (position, rang)  (position, name_kurz)  (zentralliste_id, zentralliste_rang)
//   (zentralliste_id, zentralliste_name_kurz)
// The first value picks the list (the organisation's list position or the central list id),
// the second the rank in it; a second value of null removes the user's qualification of that
// list. Anything else (no pair, two pairs, half a pair, an unknown list or rank) is 422.
import { z } from 'zod';
import type { Qualifikation } from '../data/model';
import {
  QUALIFICATION_LISTS,
  qualificationOf,
  type QualificationList,
  type QualificationRank,
} from '../data/demo/catalog';
import { invalidAttribute } from './errors';
import { dateOrEmpty } from './schemas';

const PAIRS = [
  ['position', 'rang'],
  ['position', 'name_kurz'],
  ['zentralliste_id', 'zentralliste_rang'],
  ['zentralliste_id', 'zentralliste_name_kurz'],
] as const;
const PAIR_MEMBERS = [
  'position',
  'rang',
  'name_kurz',
  'zentralliste_id',
  'zentralliste_rang',
  'zentralliste_name_kurz',
] as const;

const listNumber = z.number().int().positive();

export const qualificationEdit = z
  .strictObject({
    position: listNumber.optional(),
    rang: listNumber.nullable().optional(),
    name_kurz: z.string().min(1).nullable().optional(),
    zentralliste_id: listNumber.optional(),
    zentralliste_rang: listNumber.nullable().optional(),
    zentralliste_name_kurz: z.string().min(1).nullable().optional(),
    erwerb_datum: dateOrEmpty.optional(),
  })
  .superRefine((edit, issues) => {
    const present = PAIR_MEMBERS.filter((member) => edit[member] !== undefined);
    const fits = PAIRS.some(
      (pair) => present.length === 2 && present.includes(pair[0]) && present.includes(pair[1]),
    );
    if (!fits) {
      issues.addIssue({
        code: 'custom',
        message:
          'A qualification is named by exactly one pair: (position, rang), (position, name_kurz), ' +
          `(zentralliste_id, zentralliste_rang) or (zentralliste_id, zentralliste_name_kurz); got ${present.join(', ') || 'none'}.`,
      });
    }
  });

export type QualificationEdit = z.output<typeof qualificationEdit>;

function findList(edit: QualificationEdit, pointer: string): QualificationList {
  const list =
    edit.position !== undefined
      ? QUALIFICATION_LISTS.find((candidate) => candidate.position === edit.position)
      : QUALIFICATION_LISTS.find((candidate) => candidate.zentralliste_id === edit.zentralliste_id);
  if (!list) {
    const member = edit.position !== undefined ? 'position' : 'zentralliste_id';
    throw invalidAttribute(
      `${pointer}/${member}`,
      `No qualification list ${String(edit[member])}.`,
    );
  }
  return list;
}

/** The rank the edit names, null when it removes the list's qualification. */
function findRank(
  list: QualificationList,
  edit: QualificationEdit,
  pointer: string,
): QualificationRank | null {
  const [member, matches] =
    edit.rang !== undefined
      ? (['rang', (rank: QualificationRank) => rank.rang === edit.rang] as const)
      : edit.name_kurz !== undefined
        ? (['name_kurz', (rank: QualificationRank) => rank.name_kurz === edit.name_kurz] as const)
        : edit.zentralliste_rang !== undefined
          ? ([
              'zentralliste_rang',
              (rank: QualificationRank) => rank.rang === edit.zentralliste_rang,
            ] as const)
          : ([
              'zentralliste_name_kurz',
              (rank: QualificationRank) => rank.name_kurz === edit.zentralliste_name_kurz,
            ] as const);
  if (edit[member] === null) return null;
  const rank = list.ranks.find(matches);
  if (!rank)
    throw invalidAttribute(
      `${pointer}/${member}`,
      `List "${list.liste}" has no rank ${String(edit[member])}.`,
    );
  return rank;
}

/** The user's qualifications after the edits, one per list, in list order. */
export function applyQualificationEdits(
  current: readonly Qualifikation[],
  edits: readonly QualificationEdit[],
  pointer = '/data/attributes/qualifikationen',
): Qualifikation[] {
  const byList = new Map<number, Qualifikation>(
    current.map((qualification) => [qualification.position, qualification]),
  );
  edits.forEach((edit, index) => {
    const at = `${pointer}/${index}`;
    const list = findList(edit, at);
    const rank = findRank(list, edit, at);
    if (rank === null) {
      byList.delete(list.position);
      return;
    }
    const previous = byList.get(list.position);
    const erwerbDatum =
      edit.erwerb_datum ?? (previous?.rang === rank.rang ? previous.erwerb_datum : '');
    byList.set(list.position, qualificationOf(list, rank, erwerbDatum));
  });
  return [...byList.values()].sort((a, b) => a.position - b.position);
}
