// The fixed vocabulary of the demo organisation: German relief-organisation terms that faker
// does not know. Ids here are the records' ids, so references between lists stay readable.
import type { Qualifikation } from '../model';

export const ORGANISATION = {
  id: '1',
  name: 'DRK Ortsverein Musterstadt e.V.',
  kuerzel: 'drkms',
  strasse: 'Am Rettungsweg 12',
  plz: '12345',
  ort: 'Musterstadt',
  land: 'Deutschland',
  telefon: '01234 56780',
  email: 'info@drk-musterstadt.example',
  webseite: 'https://drk-musterstadt.example',
  vereinsregister: 'VR 1234, Amtsgericht Musterstadt',
  module: ['personal', 'helferstunden', 'kalender', 'kurse', 'formulare', 'benachrichtigungen'],
} as const;

/** The organisation's town and its neighbours: most members, venues and clients are local. */
export const LOCAL_TOWNS: readonly (readonly [city: string, postalCode: string])[] = [
  ['Musterstadt', '12345'],
  ['Musterstadt', '12347'],
  ['Musterstadt', '12349'],
  ['Altheim', '12351'],
  ['Lindenberg', '12353'],
  ['Birkenfeld', '12355'],
  ['Eichenau', '12357'],
  ['Neudorf am Musterbach', '12359'],
];
/** Map centre of Musterstadt; venues with geo lie within a few kilometres. */
export const TOWN_CENTRE = { lat: 51.3127, lng: 9.4797 } as const;

export const GROUPS = [
  'Bereitschaft',
  'Sanitätsdienst',
  'Betreuungsdienst',
  'Jugendrotkreuz',
  'Blutspende',
  'Wasserwacht',
  'Musterstadt-Nord :: Bereitschaft',
  'Musterstadt-Süd :: Sanitätsdienst',
  'Altheim :: Bereitschaft',
] as const;

export const FUNCTIONS = [
  'Bereitschaftsleitung',
  'stellv. Bereitschaftsleitung',
  'JRK-Gruppenleitung',
  'Kassenwart',
  'Materialwart',
  'Schriftführung',
  'Rotkreuzbeauftragte/r',
  'Zugführung',
] as const;

export const PROFESSIONS = [
  'Gesundheits- und Krankenpfleger/in',
  'Industriemechaniker/in',
  'Lehrer/in',
  'Student/in',
  'Schüler/in',
  'Kaufmann/-frau für Büromanagement',
  'Elektroniker/in',
  'Erzieher/in',
  'Notfallsanitäter/in',
  'Polizeibeamter/-beamtin',
  'Softwareentwickler/in',
  'Verwaltungsfachangestellte/r',
  'Rentner/in',
  'Landwirt/in',
  'Medizinische/r Fachangestellte/r',
  'Kfz-Mechatroniker/in',
] as const;

export const BANKS: readonly (readonly [name: string, bic: string])[] = [
  ['Sparkasse Musterstadt', 'SKMUDE33XXX'],
  ['Volksbank Mittelland eG', 'GENODEF1VMT'],
  ['Raiffeisenbank Altheim eG', 'GENODEF1RAH'],
  ['Kreissparkasse Lindenberg', 'SKLBDE31XXX'],
];

export const DIETS = [
  ['', 85],
  ['vegetarisch', 9],
  ['vegan', 3],
  ['halal', 2],
  ['kein Schweinefleisch', 1],
] as const;

export const INTOLERANCES = [
  'Laktoseintoleranz',
  'Nussallergie',
  'Glutenunverträglichkeit',
  'Penicillinallergie',
  'Bienengiftallergie',
] as const;

export const USER_REMARKS = [
  'Nur am Wochenende verfügbar',
  'Kein Nachtdienst',
  'Fahrerlaubnis für RTW vorhanden',
  'Dienstkleidung Größe L ausgegeben',
  'Pausiert wegen Studium im Ausland',
] as const;

/** Qualification lists: a user holds at most one rank per list. */
export interface QualificationRank {
  rang: number;
  name: string;
  name_kurz: string;
}
export interface QualificationList {
  position: number;
  liste_id: number;
  liste: string;
  zentralliste_id: number;
  ranks: readonly QualificationRank[];
}
/** A user's qualification of one rank of a list, as the user resource embeds it. */
export function qualificationOf(
  list: QualificationList,
  rank: QualificationRank,
  erwerbDatum: string,
): Qualifikation {
  return {
    position: list.position,
    liste_id: list.liste_id,
    liste: list.liste,
    rang: rank.rang,
    name: rank.name,
    name_kurz: rank.name_kurz,
    zentralliste_id: list.zentralliste_id,
    zentralliste_rang: rank.rang,
    zentralliste_name_kurz: rank.name_kurz,
    erwerb_datum: erwerbDatum,
  };
}

export const QUALIFICATION_LISTS: readonly QualificationList[] = [
  {
    position: 1,
    liste_id: 11,
    liste: 'Sanitätsdienst',
    zentralliste_id: 1,
    ranks: [
      { rang: 1, name: 'Sanitätshelfer', name_kurz: 'SanH' },
      { rang: 2, name: 'Sanitäter', name_kurz: 'San' },
      { rang: 3, name: 'Rettungssanitäter', name_kurz: 'RS' },
      { rang: 4, name: 'Notfallsanitäter', name_kurz: 'NFS' },
      { rang: 5, name: 'Notarzt', name_kurz: 'NA' },
    ],
  },
  {
    position: 2,
    liste_id: 12,
    liste: 'Führung',
    zentralliste_id: 2,
    ranks: [
      { rang: 1, name: 'Truppführer', name_kurz: 'TrF' },
      { rang: 2, name: 'Gruppenführer', name_kurz: 'GrF' },
      { rang: 3, name: 'Zugführer', name_kurz: 'ZgF' },
      { rang: 4, name: 'Verbandführer', name_kurz: 'VbF' },
    ],
  },
];

/** Kinds of training (`ausbildung_id`); validityYears gives `gueltig_bis`. */
export const TRAINING_KINDS = {
  ersteHilfe: { id: '1', bezeichnung: 'Erste Hilfe', validityYears: 2 },
  sanA: { id: '2', bezeichnung: 'Sanitätsausbildung A', validityYears: 0 },
  sanB: { id: '3', bezeichnung: 'Sanitätsausbildung B', validityYears: 0 },
  grundausbildung: { id: '4', bezeichnung: 'Einsatzkräfte-Grundausbildung', validityYears: 0 },
  rettungssanitaeter: { id: '5', bezeichnung: 'Rettungssanitäter', validityYears: 0 },
  ausbilderEh: { id: '6', bezeichnung: 'Ausbilder Erste Hilfe', validityYears: 3 },
  gruppenfuehrer: { id: '7', bezeichnung: 'Gruppenführer-Lehrgang', validityYears: 0 },
  psnv: { id: '8', bezeichnung: 'Psychosoziale Notfallversorgung (Grundkurs)', validityYears: 0 },
  fahrsicherheit: {
    id: '9',
    bezeichnung: 'Fahrsicherheitstraining Einsatzfahrzeuge',
    validityYears: 0,
  },
} as const;
export type TrainingKind = (typeof TRAINING_KINDS)[keyof typeof TRAINING_KINDS];

export const CHECKS = {
  atemschutz: { bezeichnung: 'G26.3 Atemschutz', intervalMonths: 36 },
  fuehrerschein: { bezeichnung: 'Führerscheinkontrolle', intervalMonths: 6 },
  infektionsschutz: { bezeichnung: 'Belehrung Infektionsschutz (§ 35 IfSG)', intervalMonths: 24 },
  hepatitis: { bezeichnung: 'Hepatitis-B-Impfschutz', intervalMonths: 60 },
} as const;

export const HOUR_TYPES = [
  { id: '1', bezeichnung: 'Sanitätsdienst', aktiv: true },
  { id: '2', bezeichnung: 'Ausbildung', aktiv: true },
  { id: '3', bezeichnung: 'Verwaltung', aktiv: true },
  { id: '4', bezeichnung: 'Jugendarbeit', aktiv: true },
  { id: '5', bezeichnung: 'Katastrophenschutz', aktiv: true },
  /** Deactivated a year before the anchor: only older entries carry it. */
  { id: '6', bezeichnung: 'Blutspendedienst', aktiv: false },
] as const;
export type HourTypeId = (typeof HOUR_TYPES)[number]['id'];

/** A recurring service (Dienst) or appointment (Termin) and the helpers it needs. */
export interface EventTemplate {
  titel: string;
  ort: string;
  startHour: number;
  hours: number;
  helpers: readonly [min: number, max: number];
  hourType: HourTypeId;
  /** The type entries carried before it was deactivated (a year before the anchor). */
  legacyHourType?: HourTypeId;
  /** Months (1–12) of seasonal events; all year when absent. */
  months?: readonly number[];
  weight: number;
}

export const SERVICE_TEMPLATES: readonly EventTemplate[] = [
  {
    titel: 'Sanitätsdienst Heimspiel SV Musterstadt',
    ort: 'Sportpark Musterstadt',
    startHour: 13,
    hours: 4,
    helpers: [2, 4],
    hourType: '1',
    months: [1, 2, 3, 4, 5, 8, 9, 10, 11, 12],
    weight: 8,
  },
  {
    titel: 'Sanitätsdienst Stadtfest Musterstadt',
    ort: 'Marktplatz Musterstadt',
    startHour: 12,
    hours: 9,
    helpers: [4, 10],
    hourType: '1',
    months: [6, 7, 8],
    weight: 2,
  },
  {
    titel: 'Sanitätsdienst Schützenfest Altheim',
    ort: 'Festplatz am Schützenhaus, Altheim',
    startHour: 16,
    hours: 7,
    helpers: [3, 6],
    hourType: '1',
    months: [5, 6, 7],
    weight: 2,
  },
  {
    titel: 'Sanitätsdienst Konzert Stadthalle',
    ort: 'Stadthalle Musterstadt',
    startHour: 18,
    hours: 5,
    helpers: [2, 5],
    hourType: '1',
    weight: 4,
  },
  {
    titel: 'Sanitätsdienst Musterstädter Stadtlauf',
    ort: 'Start/Ziel Schlossplatz',
    startHour: 8,
    hours: 6,
    helpers: [4, 8],
    hourType: '1',
    months: [4, 5, 9],
    weight: 1,
  },
  {
    titel: 'Sanitätsdienst Weihnachtsmarkt',
    ort: 'Rathausplatz Musterstadt',
    startHour: 15,
    hours: 6,
    helpers: [2, 4],
    hourType: '1',
    months: [11, 12],
    weight: 3,
  },
  {
    titel: 'Blutspendetermin',
    ort: 'Gemeindezentrum St. Marien, Kirchstraße 4',
    startHour: 15,
    hours: 5,
    helpers: [3, 6],
    hourType: '1',
    legacyHourType: '6',
    weight: 4,
  },
  {
    titel: 'Bereitschaftsdienst Rettungswache',
    ort: 'DRK-Zentrum, Am Rettungsweg 12',
    startHour: 7,
    hours: 12,
    helpers: [2, 3],
    hourType: '1',
    weight: 6,
  },
  {
    titel: 'Katastrophenschutz-Bereitschaft Hochwasser',
    ort: 'Bereitstellungsraum Feuerwache Nord',
    startHour: 6,
    hours: 10,
    helpers: [5, 12],
    hourType: '5',
    weight: 1,
  },
];

export const APPOINTMENT_TEMPLATES: readonly EventTemplate[] = [
  {
    titel: 'Dienstabend Bereitschaft',
    ort: 'DRK-Zentrum, Schulungsraum',
    startHour: 19,
    hours: 2.5,
    helpers: [5, 15],
    hourType: '2',
    weight: 8,
  },
  {
    titel: 'Gruppenstunde Jugendrotkreuz',
    ort: 'DRK-Zentrum, Jugendraum',
    startHour: 17,
    hours: 2,
    helpers: [1, 3],
    hourType: '4',
    weight: 6,
  },
  {
    titel: 'Übung Massenanfall von Verletzten',
    ort: 'Übungsgelände Feuerwehr Musterstadt',
    startHour: 9,
    hours: 6,
    helpers: [8, 20],
    hourType: '5',
    weight: 1,
  },
  {
    titel: 'Fortbildung Reanimation',
    ort: 'DRK-Zentrum, Schulungsraum',
    startHour: 18,
    hours: 3,
    helpers: [4, 12],
    hourType: '2',
    weight: 3,
  },
  {
    titel: 'Vorstandssitzung',
    ort: 'DRK-Zentrum, Besprechungsraum',
    startHour: 19,
    hours: 2,
    helpers: [3, 6],
    hourType: '3',
    weight: 2,
  },
  {
    titel: 'Fahrzeug- und Materialpflege',
    ort: 'DRK-Zentrum, Fahrzeughalle',
    startHour: 10,
    hours: 3,
    helpers: [2, 5],
    hourType: '5',
    weight: 3,
  },
  {
    titel: 'Jahreshauptversammlung',
    ort: 'Bürgerhaus Musterstadt',
    startHour: 19,
    hours: 3,
    helpers: [6, 20],
    hourType: '3',
    weight: 1,
  },
];

/** Occasions without an event record (`typ` sonstiges). */
export const OTHER_OCCASIONS: readonly (readonly [beschreibung: string, hourType: HourTypeId])[] = [
  ['Infostand Öffentlichkeitsarbeit', '3'],
  ['Kleiderkammer', '3'],
  ['Materialbeschaffung', '3'],
  ['Pflege der Website', '3'],
  ['Kassenprüfung', '3'],
  ['Vorbereitung Zeltlager JRK', '4'],
  ['Helfer-vor-Ort-Bereitschaft', '1'],
];

export const HOUR_REMARKS = [
  'inkl. Auf- und Abbau',
  'Fahrer RTW',
  'Einsatzleitung',
  'Springer',
  'Material aufgefüllt',
  'Nachbereitung Fahrzeug',
] as const;

export const TAX_RATES = [
  { id: '1', bezeichnung: 'Regelsatz', satz: 19, gueltig_ab: '2021-01-01' },
  { id: '2', bezeichnung: 'ermäßigter Satz', satz: 7, gueltig_ab: '2021-01-01' },
  { id: '3', bezeichnung: 'steuerfrei', satz: 0, gueltig_ab: '2021-01-01' },
] as const;

/** How a course of a type is held: days, hours of each day, usual capacity, share of courses. */
export interface CourseTypeTemplate {
  id: string;
  name: string;
  short_name: string;
  units: number;
  default_price: number;
  validity_years: number;
  days: 1 | 2;
  startHour: number;
  startMinute: number;
  hours: number;
  usualMax: number;
  /** Recognised by the accident insurers (UVT): the course gets a registration number. */
  uvtRecognised: boolean;
  /** Courses for the organisation's own members (participants are users). */
  internal: boolean;
  weight: number;
}

export const COURSE_TYPES: readonly CourseTypeTemplate[] = [
  {
    id: '1',
    name: 'Erste Hilfe',
    short_name: 'EH',
    units: 9,
    default_price: 55,
    validity_years: 2,
    days: 1,
    startHour: 8,
    startMinute: 30,
    hours: 8,
    usualMax: 20,
    uvtRecognised: true,
    internal: false,
    weight: 34,
  },
  {
    id: '2',
    name: 'Erste Hilfe Fortbildung',
    short_name: 'EH-FB',
    units: 9,
    default_price: 55,
    validity_years: 2,
    days: 1,
    startHour: 8,
    startMinute: 30,
    hours: 8,
    usualMax: 20,
    uvtRecognised: true,
    internal: false,
    weight: 24,
  },
  {
    id: '3',
    name: 'Erste Hilfe Bildungseinrichtungen',
    short_name: 'EH-BE',
    units: 9,
    default_price: 55,
    validity_years: 2,
    days: 1,
    startHour: 8,
    startMinute: 0,
    hours: 8,
    usualMax: 20,
    uvtRecognised: true,
    internal: false,
    weight: 10,
  },
  {
    id: '4',
    name: 'Erste Hilfe am Kind',
    short_name: 'EH-K',
    units: 9,
    default_price: 60,
    validity_years: 2,
    days: 1,
    startHour: 9,
    startMinute: 0,
    hours: 8,
    usualMax: 15,
    uvtRecognised: false,
    internal: false,
    weight: 9,
  },
  {
    id: '5',
    name: 'Fresh Up Reanimation',
    short_name: 'FUR',
    units: 4,
    default_price: 35,
    validity_years: 1,
    days: 1,
    startHour: 18,
    startMinute: 0,
    hours: 3,
    usualMax: 15,
    uvtRecognised: false,
    internal: false,
    weight: 10,
  },
  {
    id: '6',
    name: 'Sanitätsausbildung',
    short_name: 'San',
    units: 48,
    default_price: 180,
    validity_years: 0,
    days: 2,
    startHour: 9,
    startMinute: 0,
    hours: 8,
    usualMax: 16,
    uvtRecognised: false,
    internal: true,
    weight: 8,
  },
  {
    id: '7',
    name: 'Rettungssanitäter',
    short_name: 'RS',
    units: 160,
    default_price: 1450,
    validity_years: 0,
    days: 2,
    startHour: 8,
    startMinute: 0,
    hours: 8.5,
    usualMax: 24,
    uvtRecognised: false,
    internal: true,
    weight: 5,
  },
];

export const UVTS = [
  {
    name: 'Berufsgenossenschaft Energie Textil Elektro Medienerzeugnisse',
    short_name: 'BG ETEM',
    favorite: true,
  },
  { name: 'Berufsgenossenschaft der Bauwirtschaft', short_name: 'BG BAU', favorite: true },
  { name: 'Verwaltungs-Berufsgenossenschaft', short_name: 'VBG', favorite: true },
  { name: 'Unfallkasse Nordrhein-Westfalen', short_name: 'UK NRW', favorite: true },
  {
    name: 'Berufsgenossenschaft für Gesundheitsdienst und Wohlfahrtspflege',
    short_name: 'BGW',
    favorite: true,
  },
  { name: 'Berufsgenossenschaft Holz und Metall', short_name: 'BGHM', favorite: true },
  { name: 'Berufsgenossenschaft Handel und Warenlogistik', short_name: 'BGHW', favorite: true },
  {
    name: 'Berufsgenossenschaft Rohstoffe und chemische Industrie',
    short_name: 'BG RCI',
    favorite: false,
  },
  {
    name: 'Berufsgenossenschaft Nahrungsmittel und Gastgewerbe',
    short_name: 'BGN',
    favorite: false,
  },
  {
    name: 'Berufsgenossenschaft Verkehrswirtschaft Post-Logistik Telekommunikation',
    short_name: 'BG Verkehr',
    favorite: false,
  },
  { name: 'Unfallkasse Baden-Württemberg', short_name: 'UKBW', favorite: false },
  { name: 'Kommunale Unfallversicherung Bayern', short_name: 'KUVB', favorite: false },
  {
    name: 'Sozialversicherung für Landwirtschaft, Forsten und Gartenbau',
    short_name: 'SVLFG',
    favorite: false,
  },
  { name: 'Unfallversicherung Bund und Bahn', short_name: 'UVB', favorite: false },
] as const;
/** The insurer of schools and kindergartens in the demo region (its index in UVTS). */
export const SCHOOL_UVT_INDEX = 3;

/** Venues of open courses; client courses are held at the client's address. */
export const VENUES = [
  {
    description: 'DRK-Zentrum Musterstadt, Schulungsraum 1',
    street_name: 'Am Rettungsweg',
    street_number: '12',
    address_addition: '1. OG',
    postal_code: '12345',
    city: 'Musterstadt',
    contact: ['Frau', 'Sabine Brandt'],
  },
  {
    description: 'DRK-Zentrum Musterstadt, Schulungsraum 2',
    street_name: 'Am Rettungsweg',
    street_number: '12',
    address_addition: 'Erdgeschoss',
    postal_code: '12345',
    city: 'Musterstadt',
    contact: ['Frau', 'Sabine Brandt'],
  },
  {
    description: 'Bürgerhaus Musterstadt',
    street_name: 'Lindenplatz',
    street_number: '3',
    address_addition: 'Saal 2',
    postal_code: '12347',
    city: 'Musterstadt',
    contact: ['Herr', 'Peter Hausmann'],
  },
  {
    description: 'Gemeindehaus St. Marien',
    street_name: 'Kirchstraße',
    street_number: '4',
    address_addition: '',
    postal_code: '12349',
    city: 'Musterstadt',
    contact: ['Frau', 'Gisela Kirchner'],
  },
  {
    description: 'Rettungswache Altheim',
    street_name: 'Hauptstraße',
    street_number: '88',
    address_addition: 'Hintereingang',
    postal_code: '12351',
    city: 'Altheim',
    contact: ['', ''],
  },
  {
    description: 'Feuerwehrgerätehaus Lindenberg',
    street_name: 'Zum Spritzenhaus',
    street_number: '1',
    address_addition: '',
    postal_code: '12353',
    city: 'Lindenberg',
    contact: ['Herr', 'Jan Brandmeister'],
  },
] as const;

export const COURSE_COMMENTS = [
  'Bitte bequeme Kleidung mitbringen.',
  'Parkplätze im Hof vorhanden.',
  'Mittagessen wird gestellt.',
  'Zugang über den Seiteneingang.',
  'Schulung für Betriebshelfer, Nachweis für die BG erforderlich.',
] as const;

export const PARTICIPATION_COMMENTS = [
  'Kommt ggf. 15 Minuten später',
  'Rechnung an den Arbeitgeber',
  'Bescheinigung für die Führerscheinprüfung',
  'Bitte vegetarisches Mittagessen',
  'Hörgeräteträger, bitte vorne sitzen',
] as const;

export const CANCELLATION_REASONS = [
  'Krankheit',
  'Terminkonflikt',
  'Arbeitgeber hat die Teilnahme storniert',
  'Umzug',
  'Keine Angabe',
] as const;
export const COURSE_CANCELLED_REASON = 'Kurs abgesagt';

export const SCHOOL_KINDS = [
  'Grundschule',
  'Gesamtschule',
  'Gymnasium',
  'Realschule',
  'Berufskolleg',
  'Kita',
] as const;
export const SCHOOL_NAMES = [
  'am Lindenpark',
  'an der Eiche',
  'Musterstadt-Nord',
  'Musterstadt-Süd',
  'am Schlossberg',
  'Sonnenschein',
  'Regenbogen',
] as const;

export const CUSTOM_FIELDS = [
  {
    name: 'Ernährung',
    field_type: 'select',
    options: ['keine Angabe', 'vegetarisch', 'vegan', 'halal'],
    required: false,
  },
  {
    name: 'T-Shirt-Größe',
    field_type: 'select',
    options: ['S', 'M', 'L', 'XL', 'XXL'],
    required: false,
  },
  { name: 'Fotoerlaubnis', field_type: 'checkbox', options: [], required: true },
  { name: 'Personalnummer', field_type: 'text', options: [], required: false },
] as const;
