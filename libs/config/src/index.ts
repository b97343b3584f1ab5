export { ConfigError, loadConfig } from './load-config';
export { crashPoint } from './crash-point';
export { serviceSettings, setting } from './settings';
