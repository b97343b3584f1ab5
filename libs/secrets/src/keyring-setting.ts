import { z } from 'zod';
import { setting } from '@ris/config';
import { KeyringError, parseKeyring } from './keyring';

/**
 * SECRETS_KEYS as a validated setting: "<id>:<base64 of 32 bytes>", several
 * comma-separated, current first. Required in every mode: the services
 * never make up or embed a key (a built-in development key would quietly
 * protect a misconfigured production with a public key); `npm start` and the
 * tests provide one. Its value is never echoed in errors.
 */
export function keyringSetting() {
  return setting.secret(
    z
      .string({ error: 'required: master keys that encrypt stored secrets, "<id>:<base64 of 32 bytes>", current first (e.g. k1:$(openssl rand -base64 32))' })
      .transform((text, ctx) => {
        try {
          return parseKeyring(text);
        } catch (err) {
          if (!(err instanceof KeyringError)) throw err;
          ctx.addIssue({ code: 'custom', message: err.message });
          return z.NEVER;
        }
      }),
  );
}
