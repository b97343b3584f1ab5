import { paginate } from '../pagination';
import type { PostOptions, RequestOptions, Transport } from '../transport';
import type { Body, Query } from '../types';

/** Actions users earn coins, XP and tokens for. */
export class Actions {
  constructor(private readonly t: Transport) {}
  create(body: Body<'/api/v1/incentives/actions', 'post'>, options?: PostOptions) {
    return this.t.request('post', '/api/v1/incentives/actions', { body }, options);
  }
  list(query: Query<'/api/v1/incentives/actions', 'get'> = {}, options?: RequestOptions) {
    return this.t.request('get', '/api/v1/incentives/actions', { query }, options);
  }
  iterate(query: Omit<Query<'/api/v1/incentives/actions', 'get'>, 'page'> = {}, options?: RequestOptions) {
    return paginate((page) => this.list({ ...query, page }, options), (r) => r.actions);
  }
  get(key: string, options?: RequestOptions) {
    return this.t.request('get', '/api/v1/incentives/actions/{key}', { params: { key } }, options);
  }
  update(key: string, body: Body<'/api/v1/incentives/actions/{key}', 'patch'>, options?: RequestOptions) {
    return this.t.request('patch', '/api/v1/incentives/actions/{key}', { params: { key }, body }, options);
  }
  /** The action's events and payouts per UTC hour or day. */
  timeseries(key: string, query: Query<'/api/v1/incentives/actions/{key}/timeseries', 'get'> = {}, options?: RequestOptions) {
    return this.t.request('get', '/api/v1/incentives/actions/{key}/timeseries', { params: { key }, query }, options);
  }
}

/** Events: a user completed an action. */
export class Events {
  constructor(private readonly t: Transport) {}
  record(body: Body<'/api/v1/incentives/events', 'post'>, options?: PostOptions) {
    return this.t.request('post', '/api/v1/incentives/events', { body }, options);
  }
  recordBulk(body: Body<'/api/v1/incentives/events/bulk', 'post'>, options?: PostOptions) {
    return this.t.request('post', '/api/v1/incentives/events/bulk', { body }, options);
  }
  list(query: Query<'/api/v1/incentives/events', 'get'> = {}, options?: RequestOptions) {
    return this.t.request('get', '/api/v1/incentives/events', { query }, options);
  }
  iterate(query: Omit<Query<'/api/v1/incentives/events', 'get'>, 'page'> = {}, options?: RequestOptions) {
    return paginate((page) => this.list({ ...query, page }, options), (r) => r.events);
  }
}

/** Balances of coins, XP and tokens, from the ledger. */
export class Balances {
  constructor(private readonly t: Transport) {}
  list(query: Query<'/api/v1/incentives/balances', 'get'> = {}, options?: RequestOptions) {
    return this.t.request('get', '/api/v1/incentives/balances', { query }, options);
  }
  iterate(query: Omit<Query<'/api/v1/incentives/balances', 'get'>, 'page'> = {}, options?: RequestOptions) {
    return paginate((page) => this.list({ ...query, page }, options), (r) => r.balances);
  }
  get(userId: string, options?: RequestOptions) {
    return this.t.request('get', '/api/v1/incentives/balances/{userId}', { params: { userId } }, options);
  }
  transactions(userId: string, query: Query<'/api/v1/incentives/balances/{userId}/transactions', 'get'> = {}, options?: RequestOptions) {
    return this.t.request('get', '/api/v1/incentives/balances/{userId}/transactions', { params: { userId }, query }, options);
  }
  iterateTransactions(userId: string, options?: RequestOptions) {
    return paginate((page) => this.transactions(userId, { page }, options), (r) => r.transactions);
  }
  /** A manual credit or debit with its reason (an ADJUSTMENT entry); send an idempotency key with it. */
  adjust(userId: string, body: Body<'/api/v1/incentives/balances/{userId}/adjustments', 'post'>, options?: PostOptions) {
    return this.t.request('post', '/api/v1/incentives/balances/{userId}/adjustments', { params: { userId }, body }, options);
  }
}

/** The level ladder (XP thresholds). */
export class Levels {
  constructor(private readonly t: Transport) {}
  list(query: Query<'/api/v1/incentives/levels', 'get'> = {}, options?: RequestOptions) {
    return this.t.request('get', '/api/v1/incentives/levels', { query }, options);
  }
  create(body: Body<'/api/v1/incentives/levels', 'post'>, options?: PostOptions) {
    return this.t.request('post', '/api/v1/incentives/levels', { body }, options);
  }
  update(level: number, body: Body<'/api/v1/incentives/levels/{level}', 'patch'>, options?: RequestOptions) {
    return this.t.request('patch', '/api/v1/incentives/levels/{level}', { params: { level }, body }, options);
  }
  delete(level: number, options?: RequestOptions) {
    return this.t.request('delete', '/api/v1/incentives/levels/{level}', { params: { level } }, options);
  }
}

/** Badges and who holds them. */
export class Badges {
  constructor(private readonly t: Transport) {}
  create(body: Body<'/api/v1/incentives/badges', 'post'>, options?: PostOptions) {
    return this.t.request('post', '/api/v1/incentives/badges', { body }, options);
  }
  list(query: Query<'/api/v1/incentives/badges', 'get'> = {}, options?: RequestOptions) {
    return this.t.request('get', '/api/v1/incentives/badges', { query }, options);
  }
  listForUser(userId: string, query: Query<'/api/v1/incentives/badges/user/{userId}', 'get'> = {}, options?: RequestOptions) {
    return this.t.request('get', '/api/v1/incentives/badges/user/{userId}', { params: { userId }, query }, options);
  }
  update(key: string, body: Body<'/api/v1/incentives/badges/{key}', 'patch'>, options?: RequestOptions) {
    return this.t.request('patch', '/api/v1/incentives/badges/{key}', { params: { key }, body }, options);
  }
  award(key: string, body: Body<'/api/v1/incentives/badges/{key}/award', 'post'>, options?: PostOptions) {
    return this.t.request('post', '/api/v1/incentives/badges/{key}/award', { params: { key }, body }, options);
  }
  /** Who holds a badge, newest award first. */
  holders(key: string, query: Query<'/api/v1/incentives/badges/{key}/holders', 'get'> = {}, options?: RequestOptions) {
    return this.t.request('get', '/api/v1/incentives/badges/{key}/holders', { params: { key }, query }, options);
  }
}

/** Milestones: their definitions and what users reached. */
export class Milestones {
  constructor(private readonly t: Transport) {}
  createDefinition(body: Body<'/api/v1/incentives/milestones/definitions', 'post'>, options?: PostOptions) {
    return this.t.request('post', '/api/v1/incentives/milestones/definitions', { body }, options);
  }
  listDefinitions(query: Query<'/api/v1/incentives/milestones/definitions', 'get'> = {}, options?: RequestOptions) {
    return this.t.request('get', '/api/v1/incentives/milestones/definitions', { query }, options);
  }
  getDefinition(key: string, options?: RequestOptions) {
    return this.t.request('get', '/api/v1/incentives/milestones/definitions/{key}', { params: { key } }, options);
  }
  updateDefinition(key: string, body: Body<'/api/v1/incentives/milestones/definitions/{key}', 'patch'>, options?: RequestOptions) {
    return this.t.request('patch', '/api/v1/incentives/milestones/definitions/{key}', { params: { key }, body }, options);
  }
  deleteDefinition(key: string, options?: RequestOptions) {
    return this.t.request('delete', '/api/v1/incentives/milestones/definitions/{key}', { params: { key } }, options);
  }
  /** Milestones users reached. */
  list(query: Query<'/api/v1/incentives/milestones', 'get'> = {}, options?: RequestOptions) {
    return this.t.request('get', '/api/v1/incentives/milestones', { query }, options);
  }
}

/** The real-time leaderboard. */
export class Leaderboard {
  constructor(private readonly t: Transport) {}
  get(query: Query<'/api/v1/incentives/leaderboard', 'get'> = {}, options?: RequestOptions) {
    return this.t.request('get', '/api/v1/incentives/leaderboard', { query }, options);
  }
  /** Records a score computed outside the engine. */
  recordScore(body: Body<'/api/v1/incentives/leaderboard', 'post'>, options?: PostOptions) {
    return this.t.request('post', '/api/v1/incentives/leaderboard', { body }, options);
  }
  refresh(options?: PostOptions) {
    return this.t.request('post', '/api/v1/incentives/leaderboard/refresh', {}, options);
  }
  snapshots(query: Query<'/api/v1/incentives/leaderboard/snapshots', 'get'> = {}, options?: RequestOptions) {
    return this.t.request('get', '/api/v1/incentives/leaderboard/snapshots', { query }, options);
  }
  /** Starts the rebuild in the background (202), or answers the run already running (200). */
  startRefreshRun(options?: PostOptions) {
    return this.t.request('post', '/api/v1/incentives/leaderboard/refresh-runs', {}, options);
  }
  getRefreshRun(runId: string, options?: RequestOptions) {
    return this.t.request('get', '/api/v1/incentives/leaderboard/refresh-runs/{runId}', { params: { runId } }, options);
  }
  listRefreshRuns(query: Query<'/api/v1/incentives/leaderboard/refresh-runs', 'get'> = {}, options?: RequestOptions) {
    return this.t.request('get', '/api/v1/incentives/leaderboard/refresh-runs', { query }, options);
  }
  user(userId: string, query: Query<'/api/v1/incentives/leaderboard/{userId}', 'get'> = {}, options?: RequestOptions) {
    return this.t.request('get', '/api/v1/incentives/leaderboard/{userId}', { params: { userId }, query }, options);
  }
}

/** Your catalog of items users redeem with their balance, and the redemptions. */
export class Catalog {
  constructor(private readonly t: Transport) {}
  list(query: Query<'/api/v1/incentives/catalog', 'get'> = {}, options?: RequestOptions) {
    return this.t.request('get', '/api/v1/incentives/catalog', { query }, options);
  }
  iterate(query: Omit<Query<'/api/v1/incentives/catalog', 'get'>, 'page'> = {}, options?: RequestOptions) {
    return paginate((page) => this.list({ ...query, page }, options), (r) => r.items);
  }
  create(body: Body<'/api/v1/incentives/catalog', 'post'>, options?: PostOptions) {
    return this.t.request('post', '/api/v1/incentives/catalog', { body }, options);
  }
  get(itemId: string, options?: RequestOptions) {
    return this.t.request('get', '/api/v1/incentives/catalog/{itemId}', { params: { itemId } }, options);
  }
  update(itemId: string, body: Body<'/api/v1/incentives/catalog/{itemId}', 'patch'>, options?: RequestOptions) {
    return this.t.request('patch', '/api/v1/incentives/catalog/{itemId}', { params: { itemId }, body }, options);
  }
  delete(itemId: string, options?: RequestOptions) {
    return this.t.request('delete', '/api/v1/incentives/catalog/{itemId}', { params: { itemId } }, options);
  }
  redeem(body: Body<'/api/v1/incentives/redeem', 'post'>, options?: PostOptions) {
    return this.t.request('post', '/api/v1/incentives/redeem', { body }, options);
  }
  listRedemptions(query: Query<'/api/v1/incentives/redemptions', 'get'> = {}, options?: RequestOptions) {
    return this.t.request('get', '/api/v1/incentives/redemptions', { query }, options);
  }
  iterateRedemptions(query: Omit<Query<'/api/v1/incentives/redemptions', 'get'>, 'page'> = {}, options?: RequestOptions) {
    return paginate((page) => this.listRedemptions({ ...query, page }, options), (r) => r.redemptions);
  }
  updateRedemption(redemptionId: string, body: Body<'/api/v1/incentives/redemptions/{redemptionId}', 'patch'>, options?: RequestOptions) {
    return this.t.request('patch', '/api/v1/incentives/redemptions/{redemptionId}', { params: { redemptionId }, body }, options);
  }
}

/** The cross-app marketplace: your listings, the public ones, redemptions and settlements. */
export class Marketplace {
  constructor(private readonly t: Transport) {}
  createListing(body: Body<'/api/v1/incentives/marketplace/listings', 'post'>, options?: PostOptions) {
    return this.t.request('post', '/api/v1/incentives/marketplace/listings', { body }, options);
  }
  listListings(query: Query<'/api/v1/incentives/marketplace/listings', 'get'> = {}, options?: RequestOptions) {
    return this.t.request('get', '/api/v1/incentives/marketplace/listings', { query }, options);
  }
  getListing(listingId: string, options?: RequestOptions) {
    return this.t.request('get', '/api/v1/incentives/marketplace/listings/{listingId}', { params: { listingId } }, options);
  }
  updateListing(listingId: string, body: Body<'/api/v1/incentives/marketplace/listings/{listingId}', 'patch'>, options?: RequestOptions) {
    return this.t.request('patch', '/api/v1/incentives/marketplace/listings/{listingId}', { params: { listingId }, body }, options);
  }
  deleteListing(listingId: string, options?: RequestOptions) {
    return this.t.request('delete', '/api/v1/incentives/marketplace/listings/{listingId}', { params: { listingId } }, options);
  }
  listPublicListings(query: Query<'/api/v1/incentives/marketplace/public/listings', 'get'> = {}, options?: RequestOptions) {
    return this.t.request('get', '/api/v1/incentives/marketplace/public/listings', { query }, options);
  }
  iteratePublicListings(query: Omit<Query<'/api/v1/incentives/marketplace/public/listings', 'get'>, 'page'> = {}, options?: RequestOptions) {
    return paginate((page) => this.listPublicListings({ ...query, page }, options), (r) => r.listings);
  }
  getPublicListing(listingId: string, options?: RequestOptions) {
    return this.t.request('get', '/api/v1/incentives/marketplace/public/listings/{listingId}', { params: { listingId } }, options);
  }
  redeem(body: Body<'/api/v1/incentives/marketplace/redeem', 'post'>, options?: PostOptions) {
    return this.t.request('post', '/api/v1/incentives/marketplace/redeem', { body }, options);
  }
  listRedemptions(query: Query<'/api/v1/incentives/marketplace/redemptions', 'get'> = {}, options?: RequestOptions) {
    return this.t.request('get', '/api/v1/incentives/marketplace/redemptions', { query }, options);
  }
  settlements(query: Query<'/api/v1/incentives/marketplace/settlements', 'get'> = {}, options?: RequestOptions) {
    return this.t.request('get', '/api/v1/incentives/marketplace/settlements', { query }, options);
  }
  /** Checks an MKT- code (or a redemption id). */
  verify(id: string, query: Query<'/api/v1/incentives/marketplace/verify/{id}', 'get'> = {}, options?: RequestOptions) {
    return this.t.request('get', '/api/v1/incentives/marketplace/verify/{id}', { params: { id }, query }, options);
  }
}

/** The gamification engine's resources. */
export class Incentives {
  /** The engine's figures (events, active users, issued and redeemed, redemptions) per UTC hour or day, with their totals. */
  timeseries(query: Query<'/api/v1/incentives/stats/timeseries', 'get'> = {}, options?: RequestOptions) {
    return this.t.request('get', '/api/v1/incentives/stats/timeseries', { query }, options);
  }

  readonly actions: Actions;
  readonly events: Events;
  readonly balances: Balances;
  readonly levels: Levels;
  readonly badges: Badges;
  readonly milestones: Milestones;
  readonly leaderboard: Leaderboard;
  readonly catalog: Catalog;
  readonly marketplace: Marketplace;

  constructor(private readonly t: Transport) {
    this.actions = new Actions(t);
    this.events = new Events(t);
    this.balances = new Balances(t);
    this.levels = new Levels(t);
    this.badges = new Badges(t);
    this.milestones = new Milestones(t);
    this.leaderboard = new Leaderboard(t);
    this.catalog = new Catalog(t);
    this.marketplace = new Marketplace(t);
  }
}
