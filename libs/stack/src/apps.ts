/** The apps of the system, and the ports they listen on by default. */
export const BACKEND_SERVICES = [
  'referral-service',
  'fraud-service',
  'reward-service',
  'incentive-service',
  'catalog-marketplace-service',
  'webhook-service',
] as const;
export type BackendService = (typeof BACKEND_SERVICES)[number];
export type AppName = BackendService | 'gateway';

export const DEFAULT_PORTS: Record<AppName, number> = {
  gateway: 8080,
  'referral-service': 50051,
  'fraud-service': 50052,
  'reward-service': 50053,
  'incentive-service': 50054,
  'catalog-marketplace-service': 50055,
  'webhook-service': 50056,
};

/** The address to reach an app listening on `host`: a wildcard listen address is reached on loopback. */
export function reachableHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::' || host === '[::]') return '::1';
  return host;
}

export function httpUrl(host: string, port: number): string {
  const bare = host.replace(/^\[|\]$/g, '');
  return `http://${bare.includes(':') ? `[${bare}]` : bare}:${port}`;
}
