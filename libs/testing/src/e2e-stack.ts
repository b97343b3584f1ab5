/** Where the stack the end-to-end global set-up started listens, and its settings. */
export function e2eStack() {
  const need = (name: string) => {
    const value = process.env[name];
    if (!value) throw new Error(`${name} is not set: run end-to-end tests through the e2e project (npm test)`);
    return value;
  };
  return {
    gatewayUrl: need('E2E_GATEWAY_URL'),
    adminToken: need('E2E_ADMIN_TOKEN'),
    natsUrl: need('E2E_NATS_URL'),
    mongodbUrl: need('E2E_MONGODB_URL'),
    redisUrl: need('E2E_REDIS_URL'),
    eventsStream: need('E2E_EVENTS_STREAM'),
    eventsSubjectPrefix: need('E2E_EVENTS_SUBJECT_PREFIX'),
    dbPrefix: need('E2E_DB_PREFIX'),
    redisKeyPrefix: need('E2E_REDIS_KEY_PREFIX'),
    serviceUrls: JSON.parse(need('E2E_SERVICE_URLS')) as Record<string, string>,
  };
}
