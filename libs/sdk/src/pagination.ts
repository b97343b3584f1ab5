/** A page of a list operation. */
export interface Paged {
  pagination: { page: number; limit: number; totalItems: number; totalPages: number };
}

/**
 * Every item of a list, page after page, fetched as the loop asks for them:
 * `for await (const c of client.campaigns.iterate()) …`. Pages are read by
 * number, so an item added or removed meanwhile may shift the pages (a
 * newest-first list can then show one twice or skip one).
 */
export async function* paginate<R extends Paged, T>(fetchPage: (page: number) => Promise<R>, items: (page: R) => T[]): AsyncGenerator<T, void, undefined> {
  for (let page = 1; ; page += 1) {
    const answer = await fetchPage(page);
    const found = items(answer);
    yield* found;
    if (found.length === 0 || page >= answer.pagination.totalPages) return;
  }
}
