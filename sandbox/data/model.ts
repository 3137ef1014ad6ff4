// The attributes of every resource the sandbox serves, as sandbox/RESOURCES.md documents them.
// Relationships are listed in comments; the store keeps them generically (see store.ts).
// model.test.ts checks DOCUMENTED_ATTRIBUTES against RESOURCES.md and the generated data.

/** Date `YYYY-MM-DD`. */
export type IsoDate = string;
/** Date-time ISO 8601 with offset, e.g. `2026-03-01T08:00:00+01:00`. */
export type IsoDateTime = string;
/** Personnel dates are `""` when empty, never null (as the real service). */
export type OptionalDate = IsoDate | '';

// ---- Personal ----

export type UserStatus = 'aktiv' | 'eingeschraenkt' | 'extern' | 'gesperrt';

export const USER_RIGHTS = [
  'helfer',
  'termine',
  'sandienst',
  'kurse',
  'rechnung',
  'stunden',
  'eigenestunden',
  'mitarbeiter',
  'rundnachrichten',
  'sms',
  'material',
  'forum',
  'aufgaben',
  'adressen',
  'dokumente',
  'rechnungsansicht',
  'admin',
] as const;
export type UserRight = (typeof USER_RIGHTS)[number];

export interface Fahrerlaubnis {
  klassen: string[];
  beschraenkung: string;
  fuehrerscheinnummer: string;
  fuehrerscheindatum: OptionalDate;
}

export interface BenutzerdefiniertesFeld {
  id: string;
  name: string;
  value: string;
}

/** One rank of one qualification list; a user holds at most one rank per list. */
export interface Qualifikation {
  position: number;
  liste_id: number;
  liste: string;
  rang: number;
  name: string;
  name_kurz: string;
  zentralliste_id: number;
  zentralliste_rang: number;
  zentralliste_name_kurz: string;
  erwerb_datum: OptionalDate;
}

/** A training as embedded in the user: the `ausbildung` record's attributes plus its id. */
export interface EmbeddedAusbildung extends AusbildungAttributes {
  id: string;
}

/** Relationships: `organisation` → organisation. */
export interface UserAttributes {
  anrede: 'Herr' | 'Frau' | '';
  vorname: string;
  nachname: string;
  /** "Nachname, Vorname". */
  name: string;
  username: string;
  kuerzel: string;
  telpriv: string;
  teldienst: string;
  handy: string;
  email: string;
  /** Street and number. */
  adresse: string;
  plz: string;
  ort: string;
  land: string;
  gebdat: OptionalDate;
  gebort: string;
  gruppen_namen: string[];
  orgakuerzel: string;
  leitung: boolean;
  status: UserStatus;
  /** True iff status is `gesperrt`. */
  gesperrt: boolean;
  rechte: UserRight[];
  mitgliednr: string;
  mitglied_seit: OptionalDate;
  austritt_datum: OptionalDate;
  beruf: string;
  arbeitgeber: string;
  bemerkung: string;
  funktion: string;
  kontoinhaber: string;
  iban: string;
  bic: string;
  kreditinstitut: string;
  angehoerige: string;
  ernaehrung: string;
  allerg_intol: string;
  fahrerlaubnis: Fahrerlaubnis;
  benutzerdefinierte_felder: BenutzerdefiniertesFeld[];
  qualifikationen: Qualifikation[];
  ausbildungen: EmbeddedAusbildung[];
}

export interface OrganisationAttributes {
  name: string;
  kuerzel: string;
}

/** Relationships: `user`. */
export interface AusbildungAttributes {
  /** Numeric string naming the kind of training. */
  ausbildung_id: string;
  bezeichnung: string;
  datum: IsoDate;
  lehrgangsnummer: string;
  gueltig_bis: OptionalDate;
  created_at: IsoDateTime;
  updated_at: IsoDateTime;
}

/** Relationships: `user`. */
export interface UeberpruefungAttributes {
  bezeichnung: string;
  pruefergebnis: { bestanden: boolean; einschraenkungen: string };
  letzte_pruefung: OptionalDate;
  naechste_pruefung: OptionalDate;
  updated_at: IsoDateTime;
}

/** Relationships: `user`. */
export interface EhrungAttributes {
  bezeichnung: string;
  datum: IsoDate;
  jahre: number;
  stufe: 'bronze' | 'silber' | 'gold' | '';
}

// ---- Organisation ----

export interface OrgaAttributes {
  name: string;
  kuerzel: string;
  strasse: string;
  plz: string;
  ort: string;
  land: string;
  telefon: string;
  email: string;
  webseite: string;
  vereinsregister: string;
  module: string[];
}

// ---- Calendar ----

/** Relationships: `user` (owner). */
export interface KalenderAttributes {
  name: string;
  /** `#RRGGBB`. */
  farbe: string;
  beschreibung: string;
  typ: 'privat' | 'gruppe' | 'organisation';
  /**
   * The owner's private feed. Stored as the path `/ical/v1/veranstaltungen/private-<hash>/termine.ics`;
   * the HTTP layer prefixes its own origin when serving it.
   */
  ical_url: string;
  created_at: IsoDateTime;
}

// ---- Volunteer hours ----

/** Relationships: `anlass` → helferstunden_anlass, `typ` → helferstunden_typ, `user` → user. */
export interface HelferstundenAttributes {
  freigegeben: boolean;
  von: IsoDateTime;
  bis: IsoDateTime | null;
  stunden: number;
  anfahrt_km: number | null;
  freies_zahlenfeld: number | null;
  bemerkung: string;
  created_at: IsoDateTime;
  updated_at: IsoDateTime;
}

export type AnlassTyp = 'dienst' | 'termin' | 'kurs' | 'sonstiges';

/** Relationships: `referenz` → dienst or termin (for those kinds), else null. */
export interface HelferstundenAnlassAttributes {
  typ: AnlassTyp;
  beschreibung: string;
  datum: IsoDate;
  updated_at: IsoDateTime;
}

/** A service (`dienst`) or appointment (`termin`), only reachable as `anlass.referenz`. */
export interface EventAttributes {
  titel: string;
  beginn: IsoDateTime;
  ende: IsoDateTime;
  ort: string;
}
export type DienstAttributes = EventAttributes;
export type TerminAttributes = EventAttributes;

export interface HelferstundenTypAttributes {
  bezeichnung: string;
  aktiv: boolean;
}

/** Id: the user's id. Relationships: `typen` → the active helferstunden_typ records. */
export interface HelferstundenEinstellungenAttributes {
  eigene_stunden_erfassen: boolean;
  freigabe_erforderlich: boolean;
  standard_typ_id: string;
  anfahrt_erfassen: boolean;
  zahlenfeld_bezeichnung: string;
}

// ---- Notifications, forms, tax rates ----

/** Id `"<notificationId>-<userId>"`. No relationships: the recipient is in the id. */
export interface BenachrichtigungAttributes {
  titel: string;
  text: string;
  kategorie: 'dienst' | 'termin' | 'kurs' | 'stunden' | 'system';
  gelesen: boolean;
  erstellt_am: IsoDateTime;
  link: string;
}

export type FormularObjektTyp = 'd' | 't' | 'k' | 'm' | 'u';

/**
 * Stored type 'formular' (bookkeeping, see store.ts): served by /formulare/v1/liste as
 * `{ titel, aktion }` for the object named by objekt_typ and objekt_id.
 */
export interface FormularAttributes {
  titel: string;
  aktion: { typ: 'link'; url: string; methode: 'GET' };
  objekt_typ: FormularObjektTyp;
  objekt_id: string;
}

export interface SteuersatzAttributes {
  bezeichnung: string;
  /** Percent. */
  satz: number;
  gueltig_ab: IsoDate;
}

// ---- Courses module ----

export type CourseStatus = 'draft' | 'ready' | 'cancelled' | 'completed';

/**
 * Relationships: `course_type`, `dates` → course_date[], `location` → address (absent when
 * unknown), `client` → client or null, `trainers` → user[].
 */
export interface CourseAttributes {
  title: string;
  course_number: string;
  uvt_registration_number: string;
  status: CourseStatus;
  comment: string;
  /** Derived: participations of the course whose status is not `cancelled`. */
  number_of_participants: number;
  max_participants: number;
  /** Name of the organiser's contact at the venue, `""` when none. */
  organizer_on_site: string;
  /** EUR. */
  price: number;
  created_at: IsoDateTime;
  updated_at: IsoDateTime;
}

export interface CourseTypeAttributes {
  name: string;
  short_name: string;
  /** Teaching units of 45 minutes. */
  units: number;
  default_price: number;
  validity_years: number;
}

/** Relationships: `course`. */
export interface CourseDateAttributes {
  from: IsoDateTime;
  to: IsoDateTime;
}

export interface AddressAttributes {
  description: string;
  street: string;
  street_name: string;
  street_number: string;
  address_addition: string;
  postal_code: string;
  city: string;
  country: string;
  contact_person_salutation: string;
  contact_person_name: string;
  phone: string;
  mobile: string;
  email: string;
  /** Omitted when unknown. */
  geo?: { lat: number; lng: number };
}

export type ParticipationStatus = 'registered' | 'confirmed' | 'attended' | 'absent' | 'cancelled';

/** Relationships: `course`, `company`, `uvt`, `client`, `user` (each but course may be null). */
export interface ParticipationAttributes {
  first_name: string;
  last_name: string;
  birthday: OptionalDate;
  email: string;
  phone: string;
  status: ParticipationStatus;
  attended: boolean;
  paid: boolean;
  certificate_number: string;
  comment: string;
  created_at: IsoDateTime;
  updated_at: IsoDateTime;
}

/** Relationships: `participation`. */
export interface CancellationAttributes {
  reason: string;
  cancelled_at: IsoDateTime;
}

/** Relationships: `uvt`. */
export interface CompanyAttributes {
  name: string;
  street: string;
  postal_code: string;
  city: string;
  uvt_member_number: string;
}

export interface UvtAttributes {
  name: string;
  short_name: string;
  favorite: boolean;
}

export interface ClientAttributes {
  name: string;
  customer_number: string;
  street: string;
  postal_code: string;
  city: string;
  contact_person: string;
  email: string;
  phone: string;
}

export type CustomFieldType = 'text' | 'number' | 'checkbox' | 'date' | 'select';

/** Relationships: `course`. */
export interface CustomfieldAttributes {
  name: string;
  field_type: CustomFieldType;
  options: string[];
  value: string;
  required: boolean;
  position: number;
}

/** The attribute type of every served resource type. */
export interface AttributesByType {
  user: UserAttributes;
  organisation: OrganisationAttributes;
  ausbildung: AusbildungAttributes;
  ueberpruefung: UeberpruefungAttributes;
  ehrung: EhrungAttributes;
  orga: OrgaAttributes;
  kalender: KalenderAttributes;
  helferstunden: HelferstundenAttributes;
  helferstunden_anlass: HelferstundenAnlassAttributes;
  helferstunden_typ: HelferstundenTypAttributes;
  helferstunden_einstellungen: HelferstundenEinstellungenAttributes;
  dienst: DienstAttributes;
  termin: TerminAttributes;
  benachrichtigung: BenachrichtigungAttributes;
  steuersatz: SteuersatzAttributes;
  course: CourseAttributes;
  course_type: CourseTypeAttributes;
  course_date: CourseDateAttributes;
  address: AddressAttributes;
  participation: ParticipationAttributes;
  cancellation: CancellationAttributes;
  company: CompanyAttributes;
  uvt: UvtAttributes;
  client: ClientAttributes;
  customfield: CustomfieldAttributes;
}
export type ServedType = keyof AttributesByType;

/**
 * Every attribute name of each served type, in the order of RESOURCES.md. The compiler checks
 * each list against its interface both ways: `satisfies` rejects a name the interface lacks,
 * UnlistedAttribute a key the list lacks.
 */
const ATTRIBUTE_NAMES = {
  user: [
    'anrede',
    'vorname',
    'nachname',
    'name',
    'username',
    'kuerzel',
    'telpriv',
    'teldienst',
    'handy',
    'email',
    'adresse',
    'plz',
    'ort',
    'land',
    'gebdat',
    'gebort',
    'gruppen_namen',
    'orgakuerzel',
    'leitung',
    'status',
    'gesperrt',
    'rechte',
    'mitgliednr',
    'mitglied_seit',
    'austritt_datum',
    'beruf',
    'arbeitgeber',
    'bemerkung',
    'funktion',
    'kontoinhaber',
    'iban',
    'bic',
    'kreditinstitut',
    'angehoerige',
    'ernaehrung',
    'allerg_intol',
    'fahrerlaubnis',
    'benutzerdefinierte_felder',
    'qualifikationen',
    'ausbildungen',
  ],
  organisation: ['name', 'kuerzel'],
  ausbildung: [
    'ausbildung_id',
    'bezeichnung',
    'datum',
    'lehrgangsnummer',
    'gueltig_bis',
    'created_at',
    'updated_at',
  ],
  ueberpruefung: [
    'bezeichnung',
    'pruefergebnis',
    'letzte_pruefung',
    'naechste_pruefung',
    'updated_at',
  ],
  ehrung: ['bezeichnung', 'datum', 'jahre', 'stufe'],
  orga: [
    'name',
    'kuerzel',
    'strasse',
    'plz',
    'ort',
    'land',
    'telefon',
    'email',
    'webseite',
    'vereinsregister',
    'module',
  ],
  kalender: ['name', 'farbe', 'beschreibung', 'typ', 'ical_url', 'created_at'],
  helferstunden: [
    'freigegeben',
    'von',
    'bis',
    'stunden',
    'anfahrt_km',
    'freies_zahlenfeld',
    'bemerkung',
    'created_at',
    'updated_at',
  ],
  helferstunden_anlass: ['typ', 'beschreibung', 'datum', 'updated_at'],
  helferstunden_typ: ['bezeichnung', 'aktiv'],
  helferstunden_einstellungen: [
    'eigene_stunden_erfassen',
    'freigabe_erforderlich',
    'standard_typ_id',
    'anfahrt_erfassen',
    'zahlenfeld_bezeichnung',
  ],
  dienst: ['titel', 'beginn', 'ende', 'ort'],
  termin: ['titel', 'beginn', 'ende', 'ort'],
  benachrichtigung: ['titel', 'text', 'kategorie', 'gelesen', 'erstellt_am', 'link'],
  steuersatz: ['bezeichnung', 'satz', 'gueltig_ab'],
  course: [
    'title',
    'course_number',
    'uvt_registration_number',
    'status',
    'comment',
    'number_of_participants',
    'max_participants',
    'organizer_on_site',
    'price',
    'created_at',
    'updated_at',
  ],
  course_type: ['name', 'short_name', 'units', 'default_price', 'validity_years'],
  course_date: ['from', 'to'],
  address: [
    'description',
    'street',
    'street_name',
    'street_number',
    'address_addition',
    'postal_code',
    'city',
    'country',
    'contact_person_salutation',
    'contact_person_name',
    'phone',
    'mobile',
    'email',
    'geo',
  ],
  participation: [
    'first_name',
    'last_name',
    'birthday',
    'email',
    'phone',
    'status',
    'attended',
    'paid',
    'certificate_number',
    'comment',
    'created_at',
    'updated_at',
  ],
  cancellation: ['reason', 'cancelled_at'],
  company: ['name', 'street', 'postal_code', 'city', 'uvt_member_number'],
  uvt: ['name', 'short_name', 'favorite'],
  client: [
    'name',
    'customer_number',
    'street',
    'postal_code',
    'city',
    'contact_person',
    'email',
    'phone',
  ],
  customfield: ['name', 'field_type', 'options', 'value', 'required', 'position'],
} as const satisfies { [T in ServedType]: readonly (keyof AttributesByType[T])[] };

type UnlistedAttribute = {
  [T in ServedType]: Exclude<keyof AttributesByType[T], (typeof ATTRIBUTE_NAMES)[T][number]>;
}[ServedType];
type AssertNever<T extends never> = T;
type _EveryAttributeListed = AssertNever<UnlistedAttribute>;

/** Attribute names by served resource type, as RESOURCES.md lists them. */
export const DOCUMENTED_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = ATTRIBUTE_NAMES;

/** Attributes that a record may leave out (the service omits them when unknown). */
export const OPTIONAL_ATTRIBUTES: Partial<Record<ServedType, readonly string[]>> = {
  address: ['geo'],
};

/** Relationship names of each served type, with the type(s) they point at. */
export const DOCUMENTED_RELATIONSHIPS: {
  [T in ServedType]: Readonly<Record<string, readonly string[]>>;
} = {
  user: { organisation: ['organisation'] },
  organisation: {},
  ausbildung: { user: ['user'] },
  ueberpruefung: { user: ['user'] },
  ehrung: { user: ['user'] },
  orga: {},
  kalender: { user: ['user'] },
  helferstunden: { anlass: ['helferstunden_anlass'], typ: ['helferstunden_typ'], user: ['user'] },
  helferstunden_anlass: { referenz: ['dienst', 'termin'] },
  helferstunden_typ: {},
  helferstunden_einstellungen: { typen: ['helferstunden_typ'] },
  dienst: {},
  termin: {},
  benachrichtigung: {},
  steuersatz: {},
  course: {
    course_type: ['course_type'],
    dates: ['course_date'],
    location: ['address'],
    client: ['client'],
    trainers: ['user'],
  },
  course_type: {},
  course_date: { course: ['course'] },
  address: {},
  participation: {
    course: ['course'],
    company: ['company'],
    uvt: ['uvt'],
    client: ['client'],
    user: ['user'],
  },
  cancellation: { participation: ['participation'] },
  company: { uvt: ['uvt'] },
  uvt: {},
  client: {},
  customfield: { course: ['course'] },
};

export const SERVED_TYPES = Object.keys(ATTRIBUTE_NAMES) as ServedType[];
