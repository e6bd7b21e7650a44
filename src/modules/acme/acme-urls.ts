/** Where each resource of one CA's ACME directory lives: `<base>/acme/<ca-slug>/…`. */
export class AcmeUrls {
  readonly root: string;

  constructor(baseUrl: string, slug: string) {
    this.root = `${baseUrl}/acme/${slug}`;
  }

  get directory(): string {
    return `${this.root}/directory`;
  }
  get newNonce(): string {
    return `${this.root}/new-nonce`;
  }
  get newAccount(): string {
    return `${this.root}/new-account`;
  }
  get newOrder(): string {
    return `${this.root}/new-order`;
  }
  get revokeCert(): string {
    return `${this.root}/revoke-cert`;
  }
  /** RFC 9773 renewalInfo: GET <this>/<certID>. */
  get renewalInfo(): string {
    return `${this.root}/renewal-info`;
  }
  get keyChange(): string {
    return `${this.root}/key-change`;
  }
  account(id: number): string {
    return `${this.root}/account/${id}`;
  }
  /** The account's orders list; `after` is the last order id of the previous page. */
  accountOrders(id: number, after?: number): string {
    return `${this.root}/account/${id}/orders${after === undefined ? '' : `?after=${after}`}`;
  }
  order(id: number): string {
    return `${this.root}/order/${id}`;
  }
  finalize(id: number): string {
    return `${this.root}/order/${id}/finalize`;
  }
  authorization(id: number): string {
    return `${this.root}/authz/${id}`;
  }
  challenge(id: number): string {
    return `${this.root}/chall/${id}`;
  }
  certificate(id: number): string {
    return `${this.root}/cert/${id}`;
  }

  /** The account id a kid names, if it is an account URL of this directory. */
  accountIdOf(kid: string): number | undefined {
    const prefix = `${this.root}/account/`;
    if (!kid.startsWith(prefix)) return undefined;
    const rest = kid.slice(prefix.length);
    return /^[1-9]\d{0,9}$/.test(rest) && Number(rest) <= 2_147_483_647 ? Number(rest) : undefined;
  }
}
