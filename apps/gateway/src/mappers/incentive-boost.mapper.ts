import { BoostState, type Boost as BoostMessage, type BoostRef as BoostRefMessage } from '@ris/contracts';
import { timestamp } from '../openapi/common-schemas';
import { z } from '../openapi/zod';
import { entity, publicEnum, time } from './entity';

export const BoostStates = publicEnum(BoostState);

const MULTIPLIER = 'Coins and XP an event earns inside the window are multiplied by it, rounded down (e.g. 7 coins × 1.5 = 10)';

/** POST /incentives/boosts: a time-boxed multiplier of what events earn. */
export const Boost = entity<BoostMessage>()('Boost', {
  id: z.string(),
  name: z.string(),
  multiplier: z.number().openapi({ description: MULTIPLIER }),
  actionKeys: z.array(z.string()).openapi({ description: 'Only events of these actions; empty: every action' }),
  userIds: z.array(z.string()).openapi({ description: 'Only events of these users; empty: every user' }),
  startsAt: time(timestamp.openapi({ description: 'Events from then on (inclusive) earn under it' })),
  endsAt: time(timestamp.openapi({ description: 'Events from then on earn as usual again (exclusive)' })),
  state: BoostStates.field((s) => s.openapi({ description: 'SCHEDULED before startsAt, ACTIVE in [startsAt, endsAt), ENDED after' })),
  createdAt: time(timestamp),
});

/** The boost an event earned under (its result, its ledger entry): `boost: BoostRef.field()` in those entities. */
export const BoostRef = entity<BoostRefMessage>()(
  'BoostRef',
  { id: z.string(), name: z.string(), multiplier: z.number() },
  { description: 'The boost the coins and XP were multiplied by (the largest of those that applied); null when none' },
);

export const boostJson = Boost.json;
export const boostRefJson = BoostRef.json;
