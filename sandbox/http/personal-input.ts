// The input of user_post, user_patch and user_put: every plain attribute of `user` except the
// derived `name` and `gesperrt` and the read-only `ausbildungen`, plus qualification edits
// (see qualifications.ts). Unknown or read-only attributes are 422, so a client that sends
// what the service would ignore learns it here.
import { z } from 'zod';
import {
  USER_RIGHTS,
  type Fahrerlaubnis,
  type Qualifikation,
  type UserAttributes,
} from '../data/model';
import { invalidAttribute } from './errors';
import { applyQualificationEdits, qualificationEdit } from './qualifications';
import { dateOrEmpty, emailOrEmpty, nonEmptyText } from './schemas';

export const USER_STATUSES = ['aktiv', 'eingeschraenkt', 'gesperrt', 'extern'] as const;

const text = z.string();

export const userInput = z
  .strictObject({
    anrede: z.enum(['Herr', 'Frau', '']),
    vorname: nonEmptyText,
    nachname: nonEmptyText,
    username: text,
    kuerzel: text,
    telpriv: text,
    teldienst: text,
    handy: text,
    email: emailOrEmpty,
    adresse: text,
    plz: text,
    ort: text,
    land: text,
    gebdat: dateOrEmpty,
    gebort: text,
    gruppen_namen: z.array(text),
    orgakuerzel: text,
    leitung: z.boolean(),
    status: z.enum(USER_STATUSES),
    rechte: z.array(z.enum(USER_RIGHTS)),
    mitgliednr: text,
    mitglied_seit: dateOrEmpty,
    austritt_datum: dateOrEmpty,
    beruf: text,
    arbeitgeber: text,
    bemerkung: text,
    funktion: text,
    kontoinhaber: text,
    iban: text,
    bic: text,
    kreditinstitut: text,
    angehoerige: text,
    ernaehrung: text,
    allerg_intol: text,
    fahrerlaubnis: z
      .strictObject({
        klassen: z.array(text),
        beschraenkung: text,
        fuehrerscheinnummer: text,
        fuehrerscheindatum: dateOrEmpty,
      })
      .partial(),
    benutzerdefinierte_felder: z.array(z.strictObject({ id: text, name: text, value: text })),
    qualifikationen: z.array(qualificationEdit),
  })
  .partial();

export type UserInput = z.output<typeof userInput>;

const EMPTY_FAHRERLAUBNIS: Fahrerlaubnis = {
  klassen: [],
  beschraenkung: '',
  fuehrerscheinnummer: '',
  fuehrerscheindatum: '',
};

/** A new person's attributes before the input is applied: `""` and empty lists, as the service. */
export function blankUser(orgakuerzel: string): UserAttributes {
  return {
    anrede: '',
    vorname: '',
    nachname: '',
    name: '',
    username: '',
    kuerzel: '',
    telpriv: '',
    teldienst: '',
    handy: '',
    email: '',
    adresse: '',
    plz: '',
    ort: '',
    land: '',
    gebdat: '',
    gebort: '',
    gruppen_namen: [],
    orgakuerzel,
    leitung: false,
    status: 'aktiv',
    gesperrt: false,
    rechte: [],
    mitgliednr: '',
    mitglied_seit: '',
    austritt_datum: '',
    beruf: '',
    arbeitgeber: '',
    bemerkung: '',
    funktion: '',
    kontoinhaber: '',
    iban: '',
    bic: '',
    kreditinstitut: '',
    angehoerige: '',
    ernaehrung: '',
    allerg_intol: '',
    fahrerlaubnis: EMPTY_FAHRERLAUBNIS,
    benutzerdefinierte_felder: [],
    qualifikationen: [],
    ausbildungen: [],
  };
}

/** 422 unless both names are given: they are required whenever a person is created. */
export function requireNamesForCreation(input: UserInput): void {
  for (const member of ['vorname', 'nachname'] as const) {
    if (input[member] === undefined) {
      throw invalidAttribute(
        `/data/attributes/${member}`,
        `${member} is required when a person is created.`,
      );
    }
  }
}

/** The attributes after the input: plain values replace, the driving licence merges, derived values follow. */
export function applyUserInput(current: UserAttributes, input: UserInput): UserAttributes {
  const { qualifikationen: edits, fahrerlaubnis, ...plain } = input;
  const next: UserAttributes = { ...current, ...plain };
  if (fahrerlaubnis) next.fahrerlaubnis = { ...current.fahrerlaubnis, ...fahrerlaubnis };
  if (edits)
    next.qualifikationen = applyQualificationEdits(
      current.qualifikationen as Qualifikation[],
      edits,
    );
  next.name = `${next.nachname}, ${next.vorname}`;
  next.gesperrt = next.status === 'gesperrt';
  return next;
}
