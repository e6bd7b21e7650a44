import type { CarrierParser } from '../carrier-parser';
import { carrierCalendars } from './support/carrier-calendar-mail-c';

/** PacketFabric: BCOP iCalendar notices (X-MAINTNOTE-* properties), one VEVENT per maintenance. */
export const packetfabricParser: CarrierParser = {
  name: 'packetfabric',
  label: 'PacketFabric',
  senderDomains: ['packetfabric.com'],
  reads: ['calendar'],
  parse: (email, notes) => carrierCalendars(email, 'packetfabric', /packet\s*fabric/i, notes),
};
