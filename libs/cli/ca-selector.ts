import { CliContext } from './cli-context';
import { CommandFailure } from './cli-errors';

export const CA_SELECTOR_HELP = 'an ID, or a name (among the CAs you can see)';

export function isId(selector: string): boolean {
  return /^[1-9]\d*$/.test(selector);
}

/**
 * The ID of the CA a selector names. The API takes only IDs, so a name is looked up among the CAs
 * the caller can see, compared without case as sign-csr's ca_name is.
 */
export async function caIdFor(context: CliContext, selector: string): Promise<number> {
  if (isId(selector)) return Number(selector);
  const cas = (await context.apiClient().call('listCas', {})) as Array<{ id: number; name: string }>;
  const named = cas.filter((ca) => ca.name.toLowerCase() === selector.toLowerCase());
  if (named.length === 0) throw new CommandFailure(`no CA named '${selector}' is visible to you`);
  if (named.length > 1)
    throw new CommandFailure(`${named.length} CAs are named '${selector}' (IDs ${named.map((ca) => ca.id).join(', ')}): give the ID`);
  return named[0].id;
}
