import type { CarrierParser } from '../carrier-parser';
import { appleParser } from './apple';
import { aquaCommsParser } from './aquacomms';
import { arelionParser } from './arelion';
import { attParser } from './att';
import { awsParser } from './aws';
import { bsoParser } from './bso';
import { cirionParser } from './cirion';
import { cogentParser } from './cogent';
import { coltParser } from './colt';
import { crownCastleParser } from './crowncastle';
import { equinixParser } from './equinix';
import { euNetworksParser } from './eunetworks';
import { globalCloudXchangeParser } from './globalcloudxchange';
import { googleParser } from './google';
import { gttParser } from './gtt';
import { hawaikiParser } from './hawaiki';
import { hgcParser } from './hgc';
import { kpnParser } from './kpn';
import { lumenParser } from './lumen';
import { megaportParser } from './megaport';
import { momentumParser } from './momentum';
import { netflixParser } from './netflix';
import { nttParser } from './ntt';
import { packetfabricParser } from './packetfabric';
import { pccwParser } from './pccw';
import { seabornParser } from './seaborn';
import { sparkleParser } from './sparkle';
import { tataParser } from './tata';
import { telstraParser } from './telstra';
import { turkcellParser } from './turkcell';
import { verizonParser } from './verizon';
import { windstreamParser } from './windstream';
import { zayoParser } from './zayo';

/**
 * Every carrier format of this build, one line each. Adding a carrier: its file in this folder, one
 * line here, its fixtures in test/fixtures/mail/<name>/ (docs/mail-integration.md).
 */
export const CARRIER_PARSERS: readonly CarrierParser[] = [
  appleParser,
  aquaCommsParser,
  arelionParser,
  attParser,
  awsParser,
  bsoParser,
  cirionParser,
  cogentParser,
  coltParser,
  crownCastleParser,
  equinixParser,
  euNetworksParser,
  globalCloudXchangeParser,
  googleParser,
  gttParser,
  hawaikiParser,
  hgcParser,
  kpnParser,
  lumenParser,
  megaportParser,
  momentumParser,
  netflixParser,
  nttParser,
  packetfabricParser,
  pccwParser,
  seabornParser,
  sparkleParser,
  tataParser,
  telstraParser,
  turkcellParser,
  verizonParser,
  windstreamParser,
  zayoParser,
];

/** The parser of that name (own names only: `__proto__` names none). */
export const carrierParserNamed = (name: string): CarrierParser | undefined =>
  CARRIER_PARSERS.find((parser) => parser.name === name.trim().toLowerCase());

const matches = (domain: string, key: string) => domain === key || domain.endsWith(`.${key}`);

/** The parser whose sender domains hold the sender's domain (or a parent of it); the longest match wins. */
export function carrierParserForDomain(domain: string): CarrierParser | undefined {
  let best: { parser: CarrierParser; length: number } | undefined;
  for (const parser of CARRIER_PARSERS) {
    for (const key of parser.senderDomains) {
      if (matches(domain, key) && (!best || key.length > best.length)) best = { parser, length: key.length };
    }
  }
  return best?.parser;
}
