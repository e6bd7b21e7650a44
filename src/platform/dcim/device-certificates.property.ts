import { computedProperties } from '../framework/resource/computed-properties';
import type { ResourceExtension } from '../framework/resource/resource-declaration';

const CERTIFICATE_SCHEMA = {
  type: 'object',
  properties: {
    id: { type: 'integer', description: 'The certificate in the PKI API (`/api/v1/certificates/{id}`)' },
    serial_number: { type: 'string' },
    common_name: { type: 'string' },
    status: { type: 'string', enum: ['valid', 'revoked', 'expired'] },
    not_after: { type: 'string', format: 'date-time' },
    issuer_id: { type: 'integer' },
  },
} as const;

interface IssuedRow {
  id: number;
  device_id: number;
  serial_number: string;
  common_name: string;
  status: string;
  not_after: Date | string;
  issuer_id: number;
}

/**
 * A device's `certificates`: those the PKI issued to it through a service account bound to the
 * inventory (its `certificates.device_id`), oldest first. A summary only (no PEM, no key): the names
 * are the device's own and serials are public on the CA's CRL.
 */
export function deviceCertificatesProperty(): ResourceExtension {
  return computedProperties({ certificates: { type: 'array', items: CERTIFICATE_SCHEMA } }, async (manager, rows) => {
    const ids = rows.map((row) => row.id);
    const result = new Map<number, { certificates: unknown[] }>(ids.map((id) => [id, { certificates: [] }]));
    const issued = (await manager.query(
      `SELECT id, device_id, serial_number, common_name, status, not_after, issuer_id FROM certificates
       WHERE device_id = ANY($1::int[]) ORDER BY id`,
      [ids],
    )) as IssuedRow[];
    const now = Date.now();
    for (const row of issued) {
      const notAfter = new Date(row.not_after);
      result.get(row.device_id)?.certificates.push({
        id: row.id,
        serial_number: row.serial_number,
        common_name: row.common_name,
        status: row.status === 'valid' && notAfter.getTime() <= now ? 'expired' : row.status,
        not_after: notAfter.toISOString(),
        issuer_id: row.issuer_id,
      });
    }
    return result;
  });
}
