export { ConfigError, loadConfig } from './load-config';
export { now } from './clock';
export { crashPoint } from './crash-point';
export { DEFAULT_METRICS_PORTS, processSettings, serviceSettings, setting } from './settings';
