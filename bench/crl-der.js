'use strict';
// Reads the two things the CRL bench needs from a DER CRL (RFC 5280 §5.1), without a library: how
// many revoked entries it lists and its CRL number. A 100 000-entry CRL is a few MB; walking the
// outer TLVs takes milliseconds.

const CRL_NUMBER_OID = Buffer.from([0x06, 0x03, 0x55, 0x1d, 0x14]); // 2.5.29.20

function tlv(der, offset) {
  let length = der[offset + 1];
  let header = 2;
  if (length & 0x80) {
    const octets = length & 0x7f;
    length = 0;
    for (let i = 0; i < octets; i++) length = length * 256 + der[offset + 2 + i];
    header += octets;
  }
  const end = offset + header + length;
  if (end > der.length) throw new Error(`DER element at ${offset} runs past the end`);
  return { tag: der[offset], start: offset + header, end };
}

function children(der, parent) {
  const out = [];
  for (let offset = parent.start; offset < parent.end; offset = out[out.length - 1].end) out.push(tlv(der, offset));
  return out;
}

/** `{ entries, crlNumber }` of a DER CertificateList; crlNumber is a bigint, or null without the extension. */
function readCrl(der) {
  const [tbs] = children(der, tlv(der, 0));
  const fields = children(der, tbs);
  let i = fields[0].tag === 0x02 ? 1 : 0; // version
  i += 3; // signature, issuer, thisUpdate
  if (fields[i] && (fields[i].tag === 0x17 || fields[i].tag === 0x18)) i++; // nextUpdate
  let entries = 0;
  if (fields[i] && fields[i].tag === 0x30) entries = children(der, fields[i++]).length;
  let crlNumber = null;
  if (fields[i] && fields[i].tag === 0xa0) {
    for (const extension of children(der, children(der, fields[i])[0])) {
      const parts = children(der, extension);
      if (!der.subarray(extension.start, parts[0].end).equals(CRL_NUMBER_OID)) continue;
      const integer = tlv(der, parts[parts.length - 1].start);
      crlNumber = BigInt(`0x${der.subarray(integer.start, integer.end).toString('hex') || '0'}`);
    }
  }
  return { entries, crlNumber };
}

module.exports = { readCrl };
