import { paginate } from '../pagination';
import type { PostOptions, RequestOptions, Transport } from '../transport';
import type { Body, Query } from '../types';

/** Webhook endpoints, their signing secrets and delivery log. Verify deliveries with verifyWebhook. */
export class Webhooks {
  constructor(private readonly t: Transport) {}
  /** The answer's `secret` is shown only this once: store it. */
  create(body: Body<'/api/v1/webhooks', 'post'>, options?: PostOptions) {
    return this.t.request('post', '/api/v1/webhooks', { body }, options);
  }
  list(query: Query<'/api/v1/webhooks', 'get'> = {}, options?: RequestOptions) {
    return this.t.request('get', '/api/v1/webhooks', { query }, options);
  }
  iterate(query: Omit<Query<'/api/v1/webhooks', 'get'>, 'page'> = {}, options?: RequestOptions) {
    return paginate((page) => this.list({ ...query, page }, options), (r) => r.webhooks);
  }
  get(webhookId: string, options?: RequestOptions) {
    return this.t.request('get', '/api/v1/webhooks/{webhookId}', { params: { webhookId } }, options);
  }
  update(webhookId: string, body: Body<'/api/v1/webhooks/{webhookId}', 'patch'>, options?: RequestOptions) {
    return this.t.request('patch', '/api/v1/webhooks/{webhookId}', { params: { webhookId }, body }, options);
  }
  delete(webhookId: string, options?: RequestOptions) {
    return this.t.request('delete', '/api/v1/webhooks/{webhookId}', { params: { webhookId } }, options);
  }
  rotateSecret(webhookId: string, options?: PostOptions) {
    return this.t.request('post', '/api/v1/webhooks/{webhookId}/secret/rotate', { params: { webhookId } }, options);
  }
  listDeliveries(webhookId: string, query: Query<'/api/v1/webhooks/{webhookId}/deliveries', 'get'> = {}, options?: RequestOptions) {
    return this.t.request('get', '/api/v1/webhooks/{webhookId}/deliveries', { params: { webhookId }, query }, options);
  }
  iterateDeliveries(webhookId: string, query: Omit<Query<'/api/v1/webhooks/{webhookId}/deliveries', 'get'>, 'page'> = {}, options?: RequestOptions) {
    return paginate((page) => this.listDeliveries(webhookId, { ...query, page }, options), (r) => r.deliveries);
  }
  getDelivery(webhookId: string, deliveryId: string, options?: RequestOptions) {
    return this.t.request('get', '/api/v1/webhooks/{webhookId}/deliveries/{deliveryId}', { params: { webhookId, deliveryId } }, options);
  }
  retryDelivery(webhookId: string, deliveryId: string, options?: PostOptions) {
    return this.t.request('post', '/api/v1/webhooks/{webhookId}/deliveries/{deliveryId}/retry', { params: { webhookId, deliveryId } }, options);
  }
  /** Sends a test event to the endpoint. */
  sendTest(webhookId: string, options?: PostOptions) {
    return this.t.request('post', '/api/v1/webhooks/{webhookId}/test', { params: { webhookId } }, options);
  }
}
