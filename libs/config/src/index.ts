export { ConfigError, loadConfig } from './load-config';
export { serviceSettings, setting } from './settings';
