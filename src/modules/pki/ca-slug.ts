/** `<slugified name>-<id>`: the stable public name of a CA in CRL and certificate URLs. */
export function caSlug(ca: { id: number; name: string }): string {
  return `${slugify(ca.name)}-${ca.id}`;
}

export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug || 'ca';
}

/** Splits a slug at its last dash; the caller checks the prefix against the CA's current name. */
export function parseCaSlug(slug: string): { prefix: string; id: number } | undefined {
  const match = /^(.+)-(\d{1,10})$/.exec(slug);
  if (!match) return undefined;
  const id = Number(match[2]);
  return Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647 ? { prefix: match[1], id } : undefined;
}

/** Where relying parties fetch a CA's CRL and certificate, and ask its OCSP responder. */
export function issuerUrls(ca: { id: number; name: string; publicBaseUrl?: string | null }, requestBaseUrl: string) {
  const slug = caSlug(ca);
  const baseUrl = ca.publicBaseUrl ?? requestBaseUrl;
  return {
    crlDistributionPointUrl: `${baseUrl}/crl/${slug}`,
    caIssuersUrl: `${baseUrl}/ca/${slug}.crt`,
    ocspUrl: `${baseUrl}/ocsp/${slug}`,
  };
}
