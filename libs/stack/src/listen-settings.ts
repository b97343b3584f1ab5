import { BACKEND_SERVICES, DEFAULT_PORTS, type AppName, type BackendService } from './apps';

/** The setting that moves each app under `npm start` (named in errors, e.g. a busy port). */
export const PORT_SETTINGS: Record<AppName, string> = {
  gateway: 'PORT',
  'referral-service': 'REFERRAL_SERVICE_PORT',
  'fraud-service': 'FRAUD_SERVICE_PORT',
  'reward-service': 'REWARD_SERVICE_PORT',
  'incentive-service': 'INCENTIVE_SERVICE_PORT',
  'catalog-marketplace-service': 'CATALOG_MARKETPLACE_SERVICE_PORT',
  'webhook-service': 'WEBHOOK_SERVICE_PORT',
};

/** Where the gateway and the services reach a service (a setting of theirs, README "Settings"). */
export const URL_SETTINGS: Record<BackendService, string> = {
  'referral-service': 'REFERRAL_SERVICE_URL',
  'fraud-service': 'FRAUD_SERVICE_URL',
  'reward-service': 'REWARD_SERVICE_URL',
  'incentive-service': 'INCENTIVE_SERVICE_URL',
  'catalog-marketplace-service': 'CATALOG_MARKETPLACE_SERVICE_URL',
  'webhook-service': 'WEBHOOK_SERVICE_URL',
};

export class ListenSettingsError extends Error {
  override name = 'ListenSettingsError';
}

export interface ListenSettings {
  /** The listen address of every app. */
  host: string;
  ports: Record<AppName, number>;
}

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]', '0.0.0.0']);

function portNumber(name: string, raw: string): number {
  const port = /^\d{1,5}$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  if (!(port >= 1 && port <= 65535)) throw new ListenSettingsError(`${name} must be a port number from 1 to 65535 (got "${raw}")`);
  return port;
}

/** A `*_SERVICE_URL` the local stack can honour: a service on this machine, on an explicit port. */
function portOfUrl(service: BackendService, raw: string, host: string): number {
  const name = URL_SETTINGS[service];
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ListenSettingsError(`${name} must be a URL like http://127.0.0.1:${DEFAULT_PORTS[service]} (got "${raw}")`);
  }
  if (url.protocol !== 'http:' || !url.port || (!LOCAL_HOSTS.has(url.hostname) && url.hostname !== host)) {
    throw new ListenSettingsError(
      `${name}=${raw}: npm start runs every service itself, on this machine, so it can only take the port from an ` +
        `http://127.0.0.1:<port> URL. Set ${PORT_SETTINGS[service]} to move ${service}, or unset ${name}.`,
    );
  }
  return portNumber(name, url.port);
}

/**
 * Where every app of `npm start` listens, from the documented settings:
 * HOST (default 127.0.0.1: a development stack is not exposed), PORT for
 * the gateway (8080), <SERVICE>_SERVICE_PORT for each service (50051…), or
 * the port of an explicitly set <SERVICE>_SERVICE_URL pointing at this
 * machine. Errors name the setting to change.
 */
export function listenSettings(env: NodeJS.ProcessEnv): ListenSettings {
  const set = (name: string) => (env[name]?.trim() ? (env[name] as string) : undefined);
  const host = set('HOST')?.trim() ?? '127.0.0.1';
  const ports = { ...DEFAULT_PORTS };
  const from: Partial<Record<AppName, string>> = {};
  const gatewayPort = set('PORT');
  if (gatewayPort) [ports.gateway, from.gateway] = [portNumber('PORT', gatewayPort), 'PORT'];
  for (const service of BACKEND_SERVICES) {
    const portName = PORT_SETTINGS[service];
    const urlName = URL_SETTINGS[service];
    const byPort = set(portName) === undefined ? undefined : portNumber(portName, set(portName) as string);
    const byUrl = set(urlName) === undefined ? undefined : portOfUrl(service, set(urlName) as string, host);
    if (byPort !== undefined && byUrl !== undefined && byPort !== byUrl) {
      throw new ListenSettingsError(`${portName}=${byPort} and ${urlName}=${set(urlName)} disagree on where ${service} listens: set one of them`);
    }
    if (byPort !== undefined) [ports[service], from[service]] = [byPort, portName];
    else if (byUrl !== undefined) [ports[service], from[service]] = [byUrl, urlName];
  }
  const apps = Object.keys(ports) as AppName[];
  for (const [i, a] of apps.entries()) {
    const b = apps.slice(i + 1).find((other) => ports[other] === ports[a]);
    if (b) {
      const name = (app: AppName) => from[app] ?? `${PORT_SETTINGS[app]} (default)`;
      throw new ListenSettingsError(`${a} and ${b} would both listen on port ${ports[a]} (${name(a)}, ${name(b)}): give one another port`);
    }
  }
  return { host, ports };
}
