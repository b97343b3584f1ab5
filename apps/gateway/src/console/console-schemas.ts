import { timestamp } from '../openapi/common-schemas';
import { z } from '../openapi/zod';
import { ROLES } from './access/principal';

// The console's shapes, named: the dashboard generates its API client's
// types from these names in the served document.

export const RoleName = z.enum(ROLES).openapi('OperatorRole', {
  description: 'OWNER: everything, including API keys, webhooks and members. MANAGER: campaigns, incentive configuration, fraud decisions, rewards. VIEWER: read only.',
});

export const OperatorSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    isAdmin: z.boolean().openapi({ description: 'Instance administrator: every app as OWNER; creates apps.' }),
  })
  .openapi('Operator');

export const ConsoleAppSchema = z
  .object({ id: z.string(), name: z.string(), role: RoleName })
  .openapi('ConsoleApp', { description: 'An app you may enter, with your role in it (OWNER for an instance administrator).' });

export const ConsoleSessionSchema = z
  .object({
    operator: OperatorSchema,
    apps: z.array(ConsoleAppSchema).openapi({ description: 'The apps you may enter, oldest first.' }),
    currentAppId: z
      .string()
      .nullable()
      .openapi({ description: 'The app you switched to last if you still may enter it, else your first app; null without any.' }),
    csrfToken: z.string().openapi({ description: "Send it as X-CSRF-Token with every change made with this session (POST, PUT, PATCH, DELETE on /console/v1 and /api/v1)." }),
  })
  .openapi('ConsoleSession');

export const MemberSchema = z
  .object({ operatorId: z.string(), email: z.string(), role: RoleName, addedAt: timestamp })
  .openapi('AppMember');

const KeyName = z.string().nullable().openapi({ description: 'What the key is for, as named when it was issued; null: unnamed.' });

export const KeySummarySchema = z
  .object({
    id: z.string(),
    name: KeyName,
    prefix: z.string().openapi({ description: 'The first characters of the key, to tell keys apart.' }),
    createdAt: timestamp,
    revokedAt: timestamp.nullable(),
    lastUsedAt: timestamp.nullable().openapi({ description: 'When a request last used it, to the minute; null: never.' }),
  })
  .openapi('ApiKeySummary');

export const IssuedKeySchema = z
  .object({
    id: z.string(),
    apiKey: z.string().openapi({ description: 'The full key. Shown only here: store it now.' }),
    name: KeyName,
    prefix: z.string(),
    createdAt: timestamp,
  })
  .openapi('IssuedApiKey');
