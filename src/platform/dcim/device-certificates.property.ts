import { computedProperties } from '../framework/resource/computed-properties';
import type { ResourceExtension } from '../framework/resource/resource-declaration';

const CERTIFICATE_SCHEMA = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    serial_number: { type: 'string' },
    common_name: { type: 'string' },
    status: { type: 'string', enum: ['valid', 'revoked', 'expired'] },
    not_after: { type: 'string', format: 'date-time' },
    issuer_id: { type: 'integer' },
  },
} as const;

/** A device's `certificates`: those issued to it through a service account bound to the inventory (ids as in the PKI API). */
export function deviceCertificatesProperty(): ResourceExtension {
  return computedProperties({ certificates: { type: 'array', items: CERTIFICATE_SCHEMA } }, async (manager, rows) => {
    const ids = rows.map((row) => row.id);
    const result = new Map<number, Record<string, unknown>>(ids.map((id) => [id, { certificates: [] as unknown[] }]));
    const found = (await manager.query(
      `SELECT id, device_id, serial_number, common_name, status, not_after, issuer_id FROM certificates
       WHERE device_id = ANY($1::int[]) ORDER BY id`,
      [ids],
    )) as Array<{
      id: number;
      device_id: number;
      serial_number: string;
      common_name: string;
      status: string;
      not_after: Date;
      issuer_id: number;
    }>;
    const now = Date.now();
    for (const row of found) {
      const notAfter = new Date(row.not_after);
      (result.get(row.device_id)!.certificates as unknown[]).push({
        id: row.id,
        serial_number: row.serial_number,
        common_name: row.common_name,
        status: row.status === 'valid' && notAfter.getTime() < now ? 'expired' : row.status,
        not_after: notAfter.toISOString(),
        issuer_id: row.issuer_id,
      });
    }
    return result;
  });
}
