import { buildCaCertificate, type IssuedCertificate } from '../certificate-builder';
import { type CryptoKeyPair, generateKeyPair, type KeySpec } from '../key-pair';

export interface TestCa {
  readonly keys: CryptoKeyPair;
  readonly certificate: IssuedCertificate;
}

export interface TestHierarchy {
  readonly root: TestCa;
  readonly intermediate: TestCa;
}

export const TEST_URLS = {
  crlDistributionPointUrl: 'http://pki.example.test/ca/1/crl',
  caIssuersUrl: 'http://pki.example.test/ca/1/certificate',
  ocspUrl: 'http://ocsp.example.test/ca/1',
};

/** A root (pathLen 1) and an intermediate (pathLen 0, with CDP / AIA URLs) of the given key type. */
export async function createTestHierarchy(spec: KeySpec, label = 'Test'): Promise<TestHierarchy> {
  const rootKeys = await generateKeyPair(spec);
  const rootCertificate = await buildCaCertificate({
    subject: `CN=${label} Root CA,O=Example\\, Inc.,C=US`,
    publicKey: rootKeys.publicKey,
    signingKey: rootKeys.privateKey,
    issuer: null,
    validDays: 3650,
    pathLength: 1,
  });
  const intermediateKeys = await generateKeyPair(spec);
  const intermediateCertificate = await buildCaCertificate({
    subject: `CN=${label} Issuing CA,OU=PKI,O=Example\\, Inc.,C=US`,
    publicKey: intermediateKeys.publicKey,
    signingKey: rootKeys.privateKey,
    issuer: rootCertificate.pem,
    validDays: 1825,
    pathLength: 0,
    ...TEST_URLS,
  });
  return {
    root: { keys: rootKeys, certificate: rootCertificate },
    intermediate: { keys: intermediateKeys, certificate: intermediateCertificate },
  };
}
