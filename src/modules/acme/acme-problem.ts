/** The RFC 8555 §6.7 error types this server sends, with the HTTP status each is answered with. */
const PROBLEM_STATUSES = {
  accountDoesNotExist: 400,
  alreadyReplaced: 409,
  alreadyRevoked: 400,
  badCSR: 400,
  badNonce: 400,
  badPublicKey: 400,
  badRevocationReason: 400,
  badSignatureAlgorithm: 400,
  externalAccountRequired: 400,
  incorrectResponse: 400,
  invalidContact: 400,
  malformed: 400,
  orderNotReady: 403,
  rejectedIdentifier: 400,
  serverInternal: 500,
  unauthorized: 403,
  unsupportedContact: 400,
  unsupportedIdentifier: 400,
  connection: 400,
} as const;

export type AcmeProblemType = keyof typeof PROBLEM_STATUSES;

/** An RFC 7807 problem document as ACME sends it (`application/problem+json`). */
export interface AcmeProblemDocument {
  type: string;
  detail: string;
  status?: number;
  algorithms?: string[];
}

/** An ACME request refused with one of the RFC's error types. */
export class AcmeProblem extends Error {
  override readonly name = 'AcmeProblem';

  constructor(
    readonly type: AcmeProblemType,
    detail: string,
    /** The HTTP status when it is not the type's usual one (e.g. 404 for a resource that does not exist). */
    private readonly statusOverride?: number,
    /** badSignatureAlgorithm: the algorithms the server accepts. */
    readonly algorithms?: readonly string[],
    /** Sent as Location: the resource the problem is about (keyChange's 409 names the account that has the key). */
    readonly location?: string,
  ) {
    super(detail);
  }

  get status(): number {
    return this.statusOverride ?? PROBLEM_STATUSES[this.type];
  }

  document(): AcmeProblemDocument {
    return {
      type: `urn:ietf:params:acme:error:${this.type}`,
      detail: this.message,
      status: this.status,
      ...(this.algorithms ? { algorithms: [...this.algorithms] } : {}),
    };
  }
}
