// The organisation and its reference lists: master data, tax rates, insurers (UVT), hour types
// and course types. Few records, changed long ago.
import type {
  CourseTypeAttributes,
  HelferstundenTypAttributes,
  OrgaAttributes,
  OrganisationAttributes,
  SteuersatzAttributes,
  UvtAttributes,
} from '../model';
import { COURSE_TYPES, HOUR_TYPES, ORGANISATION, TAX_RATES, UVTS } from './catalog';
import type { GenerationContext } from './context';

export interface ReferenceData {
  /** UVT ids in catalog order. */
  uvtIds: string[];
  favoriteUvtIds: string[];
}

export function generateReferenceData(ctx: GenerationContext): ReferenceData {
  const setUpLongAgo = (): number => ctx.recent(900);
  const { id, name, kuerzel, ...masterData } = ORGANISATION;
  const orga: OrgaAttributes = { name, kuerzel, ...masterData, module: [...masterData.module] };
  ctx.put('orga', id, orga, {}, setUpLongAgo());
  const organisation: OrganisationAttributes = { name, kuerzel };
  ctx.put('organisation', id, organisation, {}, setUpLongAgo());

  for (const { id: rateId, ...rate } of TAX_RATES) {
    const attributes: SteuersatzAttributes = rate;
    ctx.put('steuersatz', rateId, attributes, {}, setUpLongAgo());
  }
  for (const { id: typeId, ...type } of HOUR_TYPES) {
    const attributes: HelferstundenTypAttributes = type;
    // The inactive type was switched off about a year ago.
    ctx.put(
      'helferstunden_typ',
      typeId,
      attributes,
      {},
      type.aktiv ? setUpLongAgo() : ctx.day(-365),
    );
  }
  for (const type of COURSE_TYPES) {
    const attributes: CourseTypeAttributes = {
      name: type.name,
      short_name: type.short_name,
      units: type.units,
      default_price: type.default_price,
      validity_years: type.validity_years,
    };
    ctx.put('course_type', type.id, attributes, {}, setUpLongAgo());
  }

  const uvtIds: string[] = [];
  const favoriteUvtIds: string[] = [];
  for (const uvt of UVTS) {
    const uvtId = ctx.newId('uvt');
    const attributes: UvtAttributes = { ...uvt };
    ctx.put('uvt', uvtId, attributes, {}, setUpLongAgo());
    uvtIds.push(uvtId);
    if (uvt.favorite) favoriteUvtIds.push(uvtId);
  }
  return { uvtIds, favoriteUvtIds };
}
