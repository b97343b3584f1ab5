export { ApiClient, adminClient, createTestApp, type ApiResponse, type TestApp } from './api-client';
export { e2eStack } from './e2e-stack';
export { eventually } from './eventually';
export { publishEvents, readEvents, waitForEvents } from './jetstream-events';
export { ownStackOptions, runName, type OwnStackOptions } from './own-stack';
export { freeTcpPort, infraTool, infraUrl, privateNatsServer, testDatabase, uniqueName } from './test-infra';
export { privateRedisServer } from './private-redis-server';
export { WebhookReceiver, type ReceivedWebhook, type WebhookReply } from './webhook-receiver';
export { secretTraces } from './secret-traces';
