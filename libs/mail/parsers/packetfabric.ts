import type { CarrierParser } from '../carrier-parser';
import { parseBcopCalendars } from './bcop-ical';

/** PacketFabric: BCOP iCalendar notices (X-MAINTNOTE-* properties), one VEVENT per maintenance. */
export const packetfabricParser: CarrierParser = {
  name: 'packetfabric',
  label: 'PacketFabric',
  senderDomains: ['packetfabric.com'],
  reads: ['calendar'],
  parse: (email, notes) => parseBcopCalendars(email, 'packetfabric', notes),
};
