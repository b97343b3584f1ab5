import { z } from 'zod';
import { isSecretSetting } from './settings';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Reads settings from the environment and validates them at start-up, so a
 * bad setting stops the process with a message naming it instead of failing
 * later at first use.
 */
export function loadConfig<S extends z.ZodRawShape>(
  shape: S,
  env: NodeJS.ProcessEnv = process.env,
): z.infer<z.ZodObject<S>> {
  const input: Record<string, string | undefined> = {};
  for (const key of Object.keys(shape)) {
    const raw = env[key];
    // An empty variable means "not set": use the default.
    input[key] = raw === undefined || raw.trim() === '' ? undefined : raw.trim();
  }
  const parsed = z.object(shape).safeParse(input);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const name = issue.path.join('.');
        const got = input[name] === undefined ? ' (not set)' : isSecretSetting(shape[name]) ? '' : ` (got "${input[name]}")`;
        return `${name}: ${issue.message}${got}`;
      }),
    );
  }
  return parsed.data;
}
