import { z } from 'zod';

/**
 * ISO 3166-1 alpha-2: the 249 officially assigned codes. Written out rather than asked of
 * Intl.DisplayNames, which also names reserved and withdrawn codes (UK, EU, SU, XK, ZZ).
 */
const COUNTRY_CODES =
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'.split(
    ' ',
  );
export const COUNTRIES: ReadonlySet<string> = new Set(COUNTRY_CODES);

const ADDRESS_TEXT_MAX = 120;

function required(label: string, max = ADDRESS_TEXT_MAX) {
  return z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);
}

/**
 * A postal address a business ships to: the order's `shipTo`, the buyer's saved default, and the
 * business profile's address. One schema, run by the browser's forms and by the server.
 */
export const addressSchema = z.object({
  company: required('Company'),
  line1: required('Address line 1'),
  line2: z.string().trim().max(ADDRESS_TEXT_MAX, `Address line 2 must be at most ${ADDRESS_TEXT_MAX} characters`).optional(),
  city: required('City', 80),
  region: required('State or region', 80),
  postalCode: required('Postal code', 16).regex(/^[A-Za-z0-9][A-Za-z0-9 -]*$/, 'Enter a valid postal code'),
  country: z
    .string({ error: 'Country is required' })
    .trim()
    .toUpperCase()
    .refine((c) => COUNTRIES.has(c), 'Country must be a two-letter ISO 3166-1 code, such as US')
    .meta({
      enum: COUNTRY_CODES,
      description: 'ISO 3166-1 alpha-2 code of an officially assigned country, e.g. US (lower case is accepted and stored upper case)',
    }),
  phone: required('Phone', 32).regex(/^\+?[0-9 ()./-]{6,}$/, 'Enter a valid phone number'),
});
export type Address = z.infer<typeof addressSchema>;
