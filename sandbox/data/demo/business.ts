// Clients that book courses and the companies that employ participants (with their insurer).
import type { ClientAttributes, CompanyAttributes } from '../model';
import { LOCAL_TOWNS, SCHOOL_KINDS, SCHOOL_NAMES, SCHOOL_UVT_INDEX } from './catalog';
import { landlineNumber, type GenerationContext } from './context';
import type { ReferenceData } from './reference';

export interface Site {
  street_name: string;
  street_number: string;
  postal_code: string;
  city: string;
}

export interface ClientInfo {
  id: string;
  kind: 'company' | 'school';
  name: string;
  site: Site;
  contactSalutation: 'Herr' | 'Frau';
  contactName: string;
  phone: string;
  email: string;
  /** The company record that employs the client's staff (company clients only). */
  companyId: string | null;
  uvtId: string;
}

export interface Business {
  clients: ClientInfo[];
  /** Companies with their insurer, for participants of open courses. */
  companies: { id: string; uvtId: string }[];
}

export function generateBusiness(ctx: GenerationContext, reference: ReferenceData): Business {
  const { faker, random } = ctx;
  const site = (): Site => {
    const [city, postal_code] = random.pick(LOCAL_TOWNS);
    return {
      street_name: faker.location.street(),
      street_number: String(random.int(1, 150)),
      postal_code,
      city,
    };
  };
  const insurer = (): string =>
    random.chance(0.85) ? random.pick(reference.favoriteUvtIds) : random.pick(reference.uvtIds);

  const companies: Business['companies'] = [];
  const addCompany = (name: string, at: Site, uvtId: string): string => {
    const id = ctx.newId('company');
    const attributes: CompanyAttributes = {
      name,
      street: `${at.street_name} ${at.street_number}`,
      postal_code: at.postal_code,
      city: at.city,
      uvt_member_number: random.chance(0.9) ? random.digits(random.int(9, 12)) : '',
    };
    ctx.put('company', id, attributes, { uvt: { type: 'uvt', id: uvtId } }, ctx.recent(700));
    companies.push({ id, uvtId });
    return id;
  };

  const clients: ClientInfo[] = [];
  for (let n = 0; n < ctx.counts.clients; n++) {
    const kind = n % 3 === 2 ? 'school' : 'company';
    const at = site();
    const name =
      kind === 'school'
        ? `${random.pick(SCHOOL_KINDS)} ${random.chance(0.4) ? at.city : random.pick(SCHOOL_NAMES)}`
        : faker.company.name();
    const uvtId = kind === 'school' ? reference.uvtIds[SCHOOL_UVT_INDEX]! : insurer();
    const contactSalutation = random.chance(0.5) ? 'Frau' : 'Herr';
    const contactName = `${faker.person.firstName(contactSalutation === 'Frau' ? 'female' : 'male')} ${faker.person.lastName()}`;
    const id = ctx.newId('client');
    const attributes: ClientAttributes = {
      name,
      customer_number: `K-${10_000 + Number(id)}`,
      street: `${at.street_name} ${at.street_number}`,
      postal_code: at.postal_code,
      city: at.city,
      contact_person: `${contactSalutation} ${contactName}`,
      email: `kurse@kunde${id}.example`,
      phone: landlineNumber(random),
    };
    ctx.put('client', id, attributes, {}, ctx.recent(600));
    const companyId = kind === 'company' ? addCompany(name, at, uvtId) : null;
    clients.push({
      id,
      kind,
      name,
      site: at,
      contactSalutation,
      contactName,
      phone: attributes.phone,
      email: attributes.email,
      companyId,
      uvtId,
    });
  }
  while (companies.length < ctx.counts.companies)
    addCompany(faker.company.name(), site(), insurer());
  return { clients, companies };
}
