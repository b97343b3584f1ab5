import type { Method } from '../http/api-router';

/**
 * An OpenAPI link from a response to an operation of the same router that
 * reads or changes what the response created, so a client (or a stateful
 * fuzzer) can chain them: e.g. POST /campaigns 201 → GET /campaigns/{campaignId}
 * with campaignId = `$response.body#/campaign/id`.
 */
export interface RouteLink {
  method: Method;
  /** The target's Express path relative to the router's base, e.g. /campaigns/:campaignId */
  path: string;
  /** The target's router base when it is another router's (a referral's hosted link, /r); default this router's. */
  basePath?: string;
  /** Parameter name (optionally `path.`/`query.` prefixed) → runtime expression. */
  parameters?: Record<string, string>;
  /** Body fields of the target → runtime expressions. */
  requestBody?: Record<string, string>;
  description?: string;
}

export type ResponseLinks = Record<string, RouteLink>;

/** Links to a user's balance and ledger, the user's id read at `userIdAt` (a runtime expression) of the response. */
export const balanceLinks = (userIdAt: string): ResponseLinks => ({
  GetBalance: { method: 'get', path: '/incentives/balances/:userId', parameters: { userId: userIdAt } },
  ListTransactions: { method: 'get', path: '/incentives/balances/:userId/transactions', parameters: { userId: userIdAt } },
});

/** JSON Pointer escaping of a path segment (RFC 6901). */
const pointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/** The document's links object: each target named by its operationRef within this document. */
export function linksObject(basePath: string, links: ResponseLinks | undefined) {
  if (!links) return undefined;
  return Object.fromEntries(
    Object.entries(links).map(([name, link]) => [
      name,
      {
        operationRef: `#/paths/${pointer((link.basePath ?? basePath) + link.path.replace(/:(\w+)/g, '{$1}'))}/${link.method}`,
        ...(link.parameters ? { parameters: link.parameters } : {}),
        ...(link.requestBody ? { requestBody: link.requestBody } : {}),
        ...(link.description ? { description: link.description } : {}),
      },
    ]),
  );
}
