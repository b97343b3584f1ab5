import { BalanceSort, ParticipantOrder, type Balance, type Participant } from '@ris/contracts';
import { EXPORT_CALL } from '../exports/export-route';
import type { ServiceClients } from '../service-clients';

/** The orders of GET /participants: the directory's, and coins (the incentive engine's). */
export type ParticipantSort = 'USER_ID' | 'REFERRALS' | 'CONVERSIONS' | 'REWARD_VALUE' | 'COINS' | 'LAST_ACTIVITY';

/** Which people GET /participants lists, in which order (its export: every page of them). */
export interface ParticipantListing {
  /** A prefix of the user id, or of the e-mail address when it holds an '@'. */
  q?: string;
  sort: ParticipantSort;
}

export interface ParticipantQuery extends ParticipantListing {
  page: number;
  limit: number;
}

/** One person as GET /participants shows them: the directory's figures with the balance the engine holds (or none). */
export interface ParticipantRow {
  participant: Participant | null;
  userId: string;
  balance: Balance | null;
}

export interface ParticipantPage {
  rows: ParticipantRow[];
  totalItems: number;
}

/** An e-mail search sorted by coins orders this many of its matches (they are sorted here, not by an index). */
export const EMAIL_COINS_MATCHES = 500;
const DIRECTORY_PAGE = 100;

/**
 * GET /participants, composed of two services' records: the referral
 * service's directory (everyone the referral program, or the incentive
 * engine's events, has seen) and the incentive engine's balances, exact at
 * the read. Every order but coins is the directory's, each page's balances
 * read in one call; by coins, the engine's balances come first (highest
 * first), then the people it holds no balance for (0 coins, by user id).
 */
export class ParticipantPages {
  constructor(private readonly clients: Pick<ServiceClients, 'referral' | 'incentive'>) {}

  async page(appId: string, query: ParticipantQuery): Promise<ParticipantPage> {
    if (query.sort !== 'COINS') {
      const res = await this.clients.referral.listParticipants({
        appId,
        page: { page: query.page, limit: query.limit },
        order: ParticipantOrder[query.sort],
        query: query.q,
      });
      return { rows: await this.withBalances(appId, res.participants), totalItems: res.page?.totalItems ?? 0 };
    }
    return query.q?.includes('@') ? this.emailMatchesByCoins(appId, query) : this.byCoins(appId, query);
  }

  /**
   * Every row page() would list, in its order, as the services stream them
   * (at most 100 a message), each batch completed from the other service in
   * one call: an export. By coins, the engine's balances (highest first),
   * then the directory's people without one (by user id), as byCoins()
   * pages them; an e-mail search by coins, its first matches as a page has them.
   */
  async *export(appId: string, query: ParticipantListing): AsyncIterable<ParticipantRow[]> {
    if (query.sort !== 'COINS') {
      yield* this.directoryWithBalances(appId, this.clients.referral.exportParticipants({ appId, order: ParticipantOrder[query.sort], query: query.q }, EXPORT_CALL));
    } else if (query.q?.includes('@')) {
      const { rows, totalItems } = await this.emailMatchesInCoinOrder(appId, query.q);
      for (let i = 0; i < totalItems; i += DIRECTORY_PAGE) yield rows.slice(i, Math.min(i + DIRECTORY_PAGE, totalItems));
    } else {
      for await (const res of this.clients.incentive.exportBalances({ appId, sort: BalanceSort.COINS, userIdPrefix: query.q }, EXPORT_CALL)) {
        yield await this.withParticipants(appId, res.balances);
      }
      const withoutBalance = this.clients.referral.exportParticipants({ appId, order: ParticipantOrder.USER_ID, query: query.q, engaged: false }, EXPORT_CALL);
      yield* this.directoryWithBalances(appId, withoutBalance);
    }
  }

  /** Each message of the directory's export with its balances. */
  private async *directoryWithBalances(appId: string, messages: AsyncIterable<{ participants: Participant[] }>): AsyncIterable<ParticipantRow[]> {
    for await (const res of messages) yield await this.withBalances(appId, res.participants);
  }

  /** The balances of a page of the directory, in one call. */
  private async withBalances(appId: string, participants: Participant[]): Promise<ParticipantRow[]> {
    const balances = await this.balancesOf(appId, participants.map((p) => p.userId));
    return participants.map((participant) => ({ participant, userId: participant.userId, balance: balances.get(participant.userId) ?? null }));
  }

  private async balancesOf(appId: string, userIds: string[]): Promise<Map<string, Balance>> {
    if (userIds.length === 0) return new Map();
    const res = await this.clients.incentive.listBalances({ appId, page: { page: 1, limit: userIds.length }, sort: BalanceSort.COINS, userIds });
    return new Map(res.balances.map((b) => [b.userId, b]));
  }

  /** The directory's records of these balances' users (at most 100), in one call. */
  private async withParticipants(appId: string, balances: Balance[]): Promise<ParticipantRow[]> {
    const directory = await this.clients.referral.getParticipants({ appId, userIds: balances.map((b) => b.userId) });
    const known = new Map(directory.participants.map((p) => [p.userId, p]));
    return balances.map((balance) => ({ participant: known.get(balance.userId) ?? null, userId: balance.userId, balance }));
  }

  /** Highest coins first: the engine's balances, then the directory's people without one. */
  private async byCoins(appId: string, query: ParticipantQuery): Promise<ParticipantPage> {
    const start = (query.page - 1) * query.limit;
    const balances = await this.clients.incentive.listBalances({
      appId,
      page: { page: query.page, limit: query.limit },
      sort: BalanceSort.COINS,
      userIdPrefix: query.q,
    });
    const withBalance = balances.page?.totalItems ?? 0;
    const rows = await this.withParticipants(appId, balances.balances);
    // Past the balances: the people without one, from where this page reaches into them.
    const without = await this.withoutBalance(appId, query.q, Math.max(0, start + rows.length - withBalance), query.limit - rows.length);
    rows.push(...(await this.withBalances(appId, without.participants)));
    return { rows, totalItems: withBalance + without.total };
  }

  /** `count` of the directory's people the engine has not seen, from `offset` (by user id), and how many there are. */
  private async withoutBalance(appId: string, q: string | undefined, offset: number, count: number): Promise<{ participants: Participant[]; total: number }> {
    const list = (page: number, limit: number) => this.clients.referral.listParticipants({ appId, page: { page, limit }, order: ParticipantOrder.USER_ID, query: q, engaged: false });
    if (count <= 0) return { participants: [], total: (await list(1, 1)).page?.totalItems ?? 0 };
    // Two pages of `count` hold any window of `count` from `offset`.
    const first = Math.floor(offset / count) + 1;
    const [a, b] = await Promise.all([list(first, count), list(first + 1, count)]);
    const skip = offset - (first - 1) * count;
    return { participants: [...a.participants, ...b.participants].slice(skip, skip + count), total: a.page?.totalItems ?? 0 };
  }

  /** An e-mail search by coins: its first matches, sorted here. */
  private async emailMatchesByCoins(appId: string, query: ParticipantQuery): Promise<ParticipantPage> {
    const { rows, totalItems } = await this.emailMatchesInCoinOrder(appId, query.q ?? '');
    const start = (query.page - 1) * query.limit;
    return { rows: rows.slice(start, start + query.limit), totalItems };
  }

  /** The first EMAIL_COINS_MATCHES people whose e-mail starts with `q`, with their balances, highest coins first (ties by user id). */
  private async emailMatchesInCoinOrder(appId: string, q: string): Promise<ParticipantPage> {
    const matches: Participant[] = [];
    let total = 0;
    for (let page = 1; matches.length < EMAIL_COINS_MATCHES; page += 1) {
      const res = await this.clients.referral.listParticipants({ appId, page: { page, limit: DIRECTORY_PAGE }, order: ParticipantOrder.USER_ID, query: q });
      total = res.page?.totalItems ?? 0;
      matches.push(...res.participants);
      if (res.participants.length < DIRECTORY_PAGE) break;
    }
    const rows: ParticipantRow[] = [];
    for (let i = 0; i < matches.length; i += DIRECTORY_PAGE) rows.push(...(await this.withBalances(appId, matches.slice(i, i + DIRECTORY_PAGE))));
    rows.sort((a, b) => (b.balance?.coins ?? 0) - (a.balance?.coins ?? 0) || (a.userId < b.userId ? -1 : 1));
    return { rows, totalItems: Math.min(total, EMAIL_COINS_MATCHES) };
  }
}
