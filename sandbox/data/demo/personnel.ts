// Personnel: the users (with the demo accounts), their trainings, checks and honours.
import type {
  AusbildungAttributes,
  EhrungAttributes,
  EmbeddedAusbildung,
  Fahrerlaubnis,
  Qualifikation,
  UeberpruefungAttributes,
  UserAttributes,
  UserRight,
  UserStatus,
} from '../model';
import type { AccountAttributes, Role } from '../store';
import { DAY_MS, addYears, formatDate } from '../time';
import {
  BANKS,
  CHECKS,
  DIETS,
  FUNCTIONS,
  GROUPS,
  INTOLERANCES,
  LOCAL_TOWNS,
  ORGANISATION,
  PROFESSIONS,
  QUALIFICATION_LISTS,
  qualificationOf,
  TRAINING_KINDS,
  USER_REMARKS,
  type TrainingKind,
} from './catalog';
import {
  asciiName,
  emailAddress,
  landlineNumber,
  mobileNumber,
  type GenerationContext,
} from './context';

/** What the other parts of the generator need to know of a person. */
export interface Person {
  id: string;
  anrede: UserAttributes['anrede'];
  vorname: string;
  nachname: string;
  email: string;
  handy: string;
  gebdat: string;
  status: UserStatus;
}

export interface Personnel {
  all: Person[];
  office: Person;
  /** The three trainer accounts, trainer1 first. */
  trainers: Person[];
  members: Person[];
  /** Everyone who may log in (office, trainers, members). */
  accounts: Person[];
  /** Further course instructors without an account. */
  instructors: Person[];
  /** People who may get volunteer hours (status aktiv or extern). */
  helpers: Person[];
}

interface DemoAccount {
  role: Role;
  username: string;
  anrede: 'Herr' | 'Frau';
  vorname: string;
  nachname: string;
  funktion: string;
  gruppen: string[];
}

/** The people of the demo: memorable usernames that say their role. */
const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  {
    role: 'office',
    username: 'office',
    anrede: 'Frau',
    vorname: 'Sabine',
    nachname: 'Brandt',
    funktion: 'Geschäftsstelle und Kursverwaltung',
    gruppen: ['Bereitschaft'],
  },
  {
    role: 'trainer',
    username: 'trainer1',
    anrede: 'Herr',
    vorname: 'Tobias',
    nachname: 'Krüger',
    funktion: 'Ausbilder Erste Hilfe',
    gruppen: ['Bereitschaft', 'Sanitätsdienst'],
  },
  {
    role: 'trainer',
    username: 'trainer2',
    anrede: 'Frau',
    vorname: 'Lena',
    nachname: 'Hoffmann',
    funktion: 'Ausbilderin Erste Hilfe',
    gruppen: ['Sanitätsdienst'],
  },
  {
    role: 'trainer',
    username: 'trainer3',
    anrede: 'Herr',
    vorname: 'Murat',
    nachname: 'Demir',
    funktion: 'Ausbilder Erste Hilfe',
    gruppen: ['Bereitschaft', 'Jugendrotkreuz'],
  },
  {
    role: 'member',
    username: 'member1',
    anrede: 'Frau',
    vorname: 'Marie',
    nachname: 'Becker',
    funktion: '',
    gruppen: ['Bereitschaft', 'Sanitätsdienst'],
  },
  {
    role: 'member',
    username: 'member2',
    anrede: 'Herr',
    vorname: 'Jonas',
    nachname: 'Weber',
    funktion: '',
    gruppen: ['Jugendrotkreuz'],
  },
];

const RIGHTS_BY_ROLE: Record<Role, UserRight[]> = {
  office: [
    'helfer',
    'termine',
    'kurse',
    'rechnung',
    'stunden',
    'eigenestunden',
    'mitarbeiter',
    'rundnachrichten',
    'adressen',
    'dokumente',
    'rechnungsansicht',
    'admin',
  ],
  trainer: ['kurse', 'eigenestunden', 'dokumente'],
  member: ['eigenestunden'],
};

const INSTRUCTOR_GROUP = 'Ausbilder';
const YEAR_DAYS = 365.25;

interface PersonPlan {
  account?: DemoAccount;
  instructor: boolean;
  status: UserStatus;
  /** Qualification rank per list position (0: none). */
  ranks: number[];
}

export function generatePersonnel(ctx: GenerationContext, feedSecret?: () => string): Personnel {
  const { random, counts } = ctx;
  const instructorCount = Math.max(2, Math.round(counts.users / 200));
  const usernames = new Set<string>();
  const all: Person[] = [];
  const byRole: Record<Role, Person[]> = { office: [], trainer: [], member: [] };
  const instructors: Person[] = [];

  for (let n = 0; n < counts.users; n++) {
    const account = DEMO_ACCOUNTS[n];
    const instructor = !account && n < DEMO_ACCOUNTS.length + instructorCount;
    const status: UserStatus =
      account || instructor
        ? 'aktiv'
        : random.weighted([
            ['aktiv', 75],
            ['eingeschraenkt', 7],
            ['extern', 10],
            ['gesperrt', 8],
          ] as const);
    const plan: PersonPlan = {
      account,
      instructor,
      status,
      ranks: planRanks(ctx, account, instructor),
    };
    const person = generateUser(ctx, plan, n + 1, usernames);
    all.push(person);
    if (account) byRole[account.role].push(person);
    if (instructor) instructors.push(person);
  }
  for (const [n, account] of DEMO_ACCOUNTS.entries()) {
    const person = all[n]!;
    // Drawn either way, so the rest of the demo data stays the same with random secrets.
    const seeded = random.hex(32);
    const attributes: AccountAttributes = {
      role: account.role,
      feedHash: feedSecret ? feedSecret() : seeded,
    };
    ctx.put('account', person.id, attributes, {}, ctx.recent(400));
  }
  return {
    all,
    office: byRole.office[0]!,
    trainers: byRole.trainer,
    members: byRole.member,
    accounts: all.slice(0, DEMO_ACCOUNTS.length),
    instructors,
    helpers: all.filter((p) => p.status === 'aktiv' || p.status === 'extern'),
  };
}

function planRanks(
  ctx: GenerationContext,
  account: DemoAccount | undefined,
  instructor: boolean,
): number[] {
  const { random } = ctx;
  if (account?.role === 'trainer' || instructor)
    return [
      random.weighted([
        [2, 3],
        [3, 5],
        [4, 2],
      ] as const),
      random.chance(0.4) ? 2 : 0,
    ];
  if (account) return [2, account.role === 'office' ? 1 : 0];
  const san = random.chance(0.7)
    ? random.weighted([
        [1, 20],
        [2, 45],
        [3, 22],
        [4, 10],
        [5, 3],
      ] as const)
    : 0;
  const lead =
    san > 0 && random.chance(0.18)
      ? random.weighted([
          [1, 50],
          [2, 35],
          [3, 12],
          [4, 3],
        ] as const)
      : 0;
  return [san, lead];
}

function generateUser(
  ctx: GenerationContext,
  plan: PersonPlan,
  memberNumber: number,
  usernames: Set<string>,
): Person {
  const { faker, random } = ctx;
  const { account, status } = plan;
  const sex = account
    ? account.anrede === 'Frau'
      ? 'female'
      : 'male'
    : random.chance(0.5)
      ? 'female'
      : 'male';
  const vorname = account?.vorname ?? faker.person.firstName(sex);
  const nachname = account?.nachname ?? faker.person.lastName();
  const anrede: UserAttributes['anrede'] =
    account || random.chance(0.95) ? (sex === 'female' ? 'Frau' : 'Herr') : '';
  const id = random.hex(32);
  const username =
    account?.username ?? uniqueUsername(`${asciiName(vorname)}.${asciiName(nachname)}`, usernames);

  const ageYears = account || plan.instructor ? random.int(26, 55) : random.int(16, 74);
  const birthDay = ctx.day(-Math.floor(ageYears * YEAR_DAYS) - random.int(0, 364));
  const gebdat = account || random.chance(0.92) ? formatDate(birthDay) : '';
  const isMember = status !== 'extern' && (account !== undefined || random.chance(0.95));
  const earliestJoin = Math.max(
    birthDay + Math.floor(10 * YEAR_DAYS) * DAY_MS,
    ctx.day(-45 * YEAR_DAYS),
  );
  const joinDay =
    earliestJoin + Math.floor((random.next() * (ctx.day(-60) - earliestJoin)) / DAY_MS) * DAY_MS;
  const leftDay =
    status === 'gesperrt' && random.chance(0.6) ? ctx.day(-random.int(10, 3 * 365)) : undefined;

  const [home, postalCode] = random.chance(0.75)
    ? random.pick(LOCAL_TOWNS)
    : [faker.location.city(), faker.location.zipCode()];
  const email = account
    ? `${account.username}@drk-musterstadt.example`
    : emailAddress(random, vorname, nachname);
  const handy = account || random.chance(0.85) ? mobileNumber(random) : '';
  const trainings = trainingsFor(ctx, plan, joinDay);
  const bank = random.pick(BANKS);
  const hasBankAccount = isMember && random.chance(0.7);

  const ausbildungen = trainings.map((training) => storeTraining(ctx, id, training));
  const attributes: UserAttributes = {
    anrede,
    vorname,
    nachname,
    name: `${nachname}, ${vorname}`,
    username,
    kuerzel: `${vorname.charAt(0)}${nachname.slice(0, 2)}`.toUpperCase(),
    telpriv: random.chance(0.5) ? landlineNumber(random) : '',
    teldienst: officePhone(id, account || random.chance(0.15) ? landlineNumber(random) : ''),
    handy,
    email,
    adresse: `${faker.location.street()} ${random.int(1, 120)}${random.chance(0.1) ? random.pick(['a', 'b']) : ''}`,
    plz: postalCode,
    ort: home,
    land: 'Deutschland',
    gebdat,
    gebort: random.chance(0.7) ? (random.chance(0.5) ? 'Musterstadt' : faker.location.city()) : '',
    gruppen_namen: groupsFor(ctx, plan),
    orgakuerzel: ORGANISATION.kuerzel,
    leitung: account?.role === 'office' || (!account && random.chance(0.03)),
    status,
    gesperrt: status === 'gesperrt',
    rechte: account
      ? RIGHTS_BY_ROLE[account.role]
      : plan.instructor
        ? RIGHTS_BY_ROLE.trainer
        : randomRights(ctx, status),
    mitgliednr: isMember ? String(10_000 + memberNumber) : '',
    mitglied_seit: isMember ? formatDate(joinDay) : '',
    austritt_datum: leftDay === undefined ? '' : formatDate(leftDay),
    beruf: random.chance(0.8) ? random.pick(PROFESSIONS) : '',
    arbeitgeber: random.chance(0.5) ? faker.company.name() : '',
    bemerkung: !account && random.chance(0.06) ? random.pick(USER_REMARKS) : '',
    funktion:
      account?.funktion ??
      (plan.instructor
        ? 'Ausbilder/in Erste Hilfe'
        : random.chance(0.08)
          ? random.pick(FUNCTIONS)
          : ''),
    kontoinhaber: hasBankAccount ? `${vorname} ${nachname}` : '',
    iban: hasBankAccount ? faker.finance.iban({ formatted: false, countryCode: 'DE' }) : '',
    bic: hasBankAccount ? bank[1] : '',
    kreditinstitut: hasBankAccount ? bank[0] : '',
    angehoerige: random.chance(0.4)
      ? `${faker.person.firstName()} ${nachname} (Angehörige/r), ${mobileNumber(random)}`
      : '',
    ernaehrung: random.weighted(DIETS),
    allerg_intol: random.chance(0.1) ? random.pick(INTOLERANCES) : '',
    fahrerlaubnis: drivingLicence(ctx, birthDay),
    benutzerdefinierte_felder: [
      {
        id: '1',
        name: 'T-Shirt-Größe',
        value: random.chance(0.7) ? random.pick(['S', 'M', 'L', 'XL', 'XXL']) : '',
      },
      {
        id: '2',
        name: 'Dienstkleidung ausgegeben',
        value: isMember && random.chance(0.6) ? 'ja' : 'nein',
      },
    ],
    qualifikationen: qualificationsFor(plan, trainings),
    ausbildungen,
  };
  const latestTrainingChange = Math.max(0, ...ausbildungen.map((a) => Date.parse(a.updated_at)));
  ctx.put(
    'user',
    id,
    attributes,
    { organisation: { type: 'organisation', id: ORGANISATION.id } },
    Math.max(latestTrainingChange, ctx.recent(700)),
  );
  generateChecks(ctx, id, attributes.fahrerlaubnis, plan);
  generateHonours(ctx, id, isMember ? joinDay : undefined);
  return { id, anrede, vorname, nachname, email, handy, gebdat, status };
}

/**
 * The office phone: for about half of the people who have one, an internal extension such as
 * `4711` (3 to 5 digits, no leading zero) instead of the full landline number. The choice and the
 * digits come from the person's own stream (derivedStream), so the landline is still drawn from
 * the shared stream and every other field stays as it was for the same seed.
 */
function officePhone(userId: string, landline: string): string {
  if (landline === '') return landline;
  const next = derivedStream(`teldienst\u0000${userId}`);
  if (next() >= 0.5) return landline;
  const length = 3 + Math.floor(next() * 3);
  let extension = String(1 + Math.floor(next() * 9));
  while (extension.length < length) extension += String(Math.floor(next() * 10));
  return extension;
}

/**
 * A small PRNG (FNV-1a of the key, then mulberry32) apart from ctx.random: for choices added to
 * the generator later, keyed by something already drawn (a person's id), so that they draw
 * nothing from the shared stream and shift no other field of the same seed.
 */
function derivedStream(key: string): () => number {
  let state = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    state ^= key.charCodeAt(i);
    state = Math.imul(state, 0x01000193);
  }
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function uniqueUsername(wanted: string, taken: Set<string>): string {
  let candidate = wanted;
  for (let n = 2; taken.has(candidate); n++) candidate = `${wanted}${n}`;
  taken.add(candidate);
  return candidate;
}

function groupsFor(ctx: GenerationContext, plan: PersonPlan): string[] {
  if (plan.account)
    return plan.account.role === 'trainer'
      ? [...plan.account.gruppen, INSTRUCTOR_GROUP]
      : plan.account.gruppen;
  const groups: string[] = ctx.random.sample(GROUPS, ctx.random.int(0, 3));
  if (plan.instructor) groups.push(INSTRUCTOR_GROUP);
  return groups;
}

function randomRights(ctx: GenerationContext, status: UserStatus): UserRight[] {
  if (status !== 'aktiv') return [];
  return ctx.random.weighted<UserRight[]>([
    [['eigenestunden'], 70],
    [['eigenestunden', 'helfer', 'termine'], 8],
    [['eigenestunden', 'sandienst'], 6],
    [[], 16],
  ]);
}

function drivingLicence(ctx: GenerationContext, birthDay: number): Fahrerlaubnis {
  const { random } = ctx;
  const ageYears = (ctx.anchorDay - birthDay) / DAY_MS / YEAR_DAYS;
  if (ageYears < 18 || random.chance(0.2)) {
    return { klassen: [], beschraenkung: '', fuehrerscheinnummer: '', fuehrerscheindatum: '' };
  }
  const klassen = random.weighted<string[]>([
    [['B'], 55],
    [['B', 'BE'], 20],
    [['B', 'BE', 'C1', 'C1E'], 18],
    [['A', 'B', 'BE', 'C', 'CE', 'C1', 'C1E'], 7],
  ]);
  const issued =
    birthDay + Math.floor((18 + random.next() * Math.max(0, ageYears - 18)) * YEAR_DAYS) * DAY_MS;
  return {
    klassen,
    beschraenkung: random.chance(0.15) ? 'Sehhilfe (01.01)' : '',
    fuehrerscheinnummer: random.chance(0.6)
      ? `B${random.digits(3)}${random.pick(['X', 'K', 'Z'])}${random.digits(5)}${random.int(1, 9)}`
      : '',
    fuehrerscheindatum: formatDate(Math.min(issued, ctx.day(-30))),
  };
}

interface PlannedTraining {
  kind: TrainingKind;
  day: number;
}

/** The person's trainings, consistent with their qualification ranks, in date order. */
function trainingsFor(
  ctx: GenerationContext,
  plan: PersonPlan,
  joinDay: number,
): PlannedTraining[] {
  const { random } = ctx;
  const [san = 0, lead = 0] = plan.ranks;
  const kinds: TrainingKind[] = [];
  if (plan.account || random.chance(0.7)) kinds.push(TRAINING_KINDS.ersteHilfe);
  if (san >= 1 && random.chance(0.8)) kinds.push(TRAINING_KINDS.grundausbildung);
  if (san >= 2) kinds.push(TRAINING_KINDS.sanA, TRAINING_KINDS.sanB);
  if (san >= 3) kinds.push(TRAINING_KINDS.rettungssanitaeter);
  if (lead >= 2) kinds.push(TRAINING_KINDS.gruppenfuehrer);
  if (plan.account?.role === 'trainer' || plan.instructor) kinds.push(TRAINING_KINDS.ausbilderEh);
  if (random.chance(0.05)) kinds.push(TRAINING_KINDS.psnv);
  if (random.chance(0.04)) kinds.push(TRAINING_KINDS.fahrsicherheit);

  const span = Math.max(1, Math.floor((ctx.day(-14) - joinDay) / DAY_MS));
  return kinds
    .map((kind) => {
      // First aid and instructor licences are renewed: their last date lies in the recent years.
      const renewable = kind.validityYears > 0;
      const day = renewable
        ? ctx.day(-random.int(14, Math.round(kind.validityYears * 365 * 1.3)))
        : joinDay + random.int(0, span) * DAY_MS;
      return { kind, day: Math.max(day, joinDay) };
    })
    .sort((a, b) => a.day - b.day);
}

function storeTraining(
  ctx: GenerationContext,
  userId: string,
  training: PlannedTraining,
): EmbeddedAusbildung {
  const { random } = ctx;
  const id = ctx.newId('ausbildung');
  const createdAt = ctx.past(
    training.day + random.int(1, 20) * DAY_MS + random.int(8, 18) * 3_600_000,
  );
  const updatedAt = random.chance(0.2)
    ? ctx.past(createdAt + random.int(1, 300) * DAY_MS)
    : createdAt;
  const validUntil =
    training.kind.validityYears > 0
      ? formatDate(addYears(training.day, training.kind.validityYears))
      : '';
  const attributes: AusbildungAttributes = {
    ausbildung_id: training.kind.id,
    bezeichnung: training.kind.bezeichnung,
    datum: formatDate(training.day),
    lehrgangsnummer: random.chance(0.7)
      ? `LG-${new Date(training.day).getUTCFullYear()}-${String(random.int(1, 60)).padStart(3, '0')}`
      : '',
    gueltig_bis: validUntil,
    created_at: ctx.dateTime(createdAt),
    updated_at: ctx.dateTime(updatedAt),
  };
  ctx.put('ausbildung', id, attributes, { user: { type: 'user', id: userId } }, updatedAt);
  return { id, ...attributes };
}

function qualificationsFor(plan: PersonPlan, trainings: PlannedTraining[]): Qualifikation[] {
  const evidence: Record<number, TrainingKind> = {
    0: TRAINING_KINDS.sanB,
    1: TRAINING_KINDS.gruppenfuehrer,
  };
  return QUALIFICATION_LISTS.flatMap((list, index) => {
    const rang = plan.ranks[index] ?? 0;
    const rank = list.ranks.find((r) => r.rang === rang);
    if (!rank) return [];
    const acquired = trainings.filter((t) => t.kind === evidence[index]).at(-1);
    return [qualificationOf(list, rank, acquired ? formatDate(acquired.day) : '')];
  });
}

function generateChecks(
  ctx: GenerationContext,
  userId: string,
  licence: Fahrerlaubnis,
  plan: PersonPlan,
): void {
  const { random } = ctx;
  const checks: (typeof CHECKS)[keyof typeof CHECKS][] = [];
  if (licence.klassen.includes('C1') && random.chance(0.8)) checks.push(CHECKS.fuehrerschein);
  if ((plan.ranks[0] ?? 0) >= 2 && random.chance(0.15)) checks.push(CHECKS.atemschutz);
  if ((plan.ranks[0] ?? 0) >= 1 && random.chance(0.3)) checks.push(CHECKS.infektionsschutz);
  if ((plan.ranks[0] ?? 0) >= 3 && random.chance(0.3)) checks.push(CHECKS.hepatitis);
  for (const check of checks) {
    // Some checks are overdue: their last date lies more than one interval back.
    const lastDay = ctx.day(-random.int(5, Math.round(check.intervalMonths * 30.4 * 1.15)));
    const passed = random.chance(0.96);
    const changedAt = ctx.past(lastDay + random.int(1, 5) * DAY_MS + 10 * 3_600_000);
    const attributes: UeberpruefungAttributes = {
      bezeichnung: check.bezeichnung,
      pruefergebnis: {
        bestanden: passed,
        einschraenkungen:
          passed && random.chance(0.1)
            ? 'Brillenträger'
            : passed
              ? ''
              : 'Wiederholung erforderlich',
      },
      letzte_pruefung: formatDate(lastDay),
      naechste_pruefung: formatDate(lastDay + Math.round(check.intervalMonths * 30.44) * DAY_MS),
      updated_at: ctx.dateTime(changedAt),
    };
    ctx.put(
      'ueberpruefung',
      ctx.newId('ueberpruefung'),
      attributes,
      { user: { type: 'user', id: userId } },
      changedAt,
    );
  }
}

const HONOURS: readonly (readonly [years: number, stufe: EhrungAttributes['stufe']])[] = [
  [10, 'bronze'],
  [25, 'silber'],
  [40, 'gold'],
];

function generateHonours(
  ctx: GenerationContext,
  userId: string,
  joinDay: number | undefined,
): void {
  const { random } = ctx;
  if (joinDay !== undefined) {
    for (const [years, stufe] of HONOURS) {
      const day = addYears(joinDay, years);
      if (day > ctx.day(-1) || !random.chance(0.85)) continue;
      const attributes: EhrungAttributes = {
        bezeichnung: `Ehrennadel in ${stufe === 'bronze' ? 'Bronze' : stufe === 'silber' ? 'Silber' : 'Gold'} für ${years} Jahre Mitgliedschaft`,
        datum: formatDate(day),
        jahre: years,
        stufe,
      };
      ctx.put(
        'ehrung',
        ctx.newId('ehrung'),
        attributes,
        { user: { type: 'user', id: userId } },
        day + 30 * DAY_MS,
      );
    }
  }
  if (random.chance(0.03)) {
    const day = ctx.day(-random.int(30, 2000));
    const attributes: EhrungAttributes = {
      bezeichnung: 'Blutspenderehrung (25 Spenden)',
      datum: formatDate(day),
      jahre: 0,
      stufe: '',
    };
    ctx.put(
      'ehrung',
      ctx.newId('ehrung'),
      attributes,
      { user: { type: 'user', id: userId } },
      day + 14 * DAY_MS,
    );
  }
}
