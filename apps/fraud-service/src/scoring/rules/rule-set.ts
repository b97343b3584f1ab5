import { deviceVelocity } from './device-velocity';
import { disposableEmail } from './disposable-email';
import { fastConversion } from './fast-conversion';
import type { FraudRule } from './fraud-rule';
import { ipVelocity } from './ip-velocity';
import { multipleCodes } from './multiple-codes';
import { referrerVelocity } from './referrer-velocity';
import { sameDevice } from './same-device';
import { sameEmail } from './same-email';
import { sameIp } from './same-ip';
import { sameUser } from './same-user';

/** Every rule the scorer runs; each says which kinds of event it applies to. */
export const FRAUD_RULES: readonly FraudRule[] = [
  sameUser,
  sameEmail,
  sameDevice,
  sameIp,
  ipVelocity,
  deviceVelocity,
  referrerVelocity,
  fastConversion,
  disposableEmail,
  multipleCodes,
];
