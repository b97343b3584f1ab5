import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import type { ServiceImpl } from '@connectrpc/connect';
import type { IncentiveService } from '@ris/contracts';
import { tenantOf } from '@ris/rpc';
import type { IncentiveSettings, IncentiveSettingsView } from './incentive-settings';

const settingsMessage = (s: IncentiveSettingsView) => ({
  coinExpiryDays: s.coinExpiryDays ?? undefined,
  tokenExpiryDays: s.tokenExpiryDays ?? undefined,
  updatedAt: s.updatedAt ? timestampFromDate(s.updatedAt) : undefined,
});

/** The app's engine settings at the edge. */
export function settingsCalls(settings: IncentiveSettings): Pick<ServiceImpl<typeof IncentiveService>, 'getIncentiveSettings' | 'putIncentiveSettings'> {
  return {
    async getIncentiveSettings(_req, ctx) {
      return { settings: settingsMessage(await settings.view(tenantOf(ctx))) };
    },
    async putIncentiveSettings(req, ctx) {
      return { settings: settingsMessage(await settings.put(tenantOf(ctx), { coinExpiryDays: req.coinExpiryDays ?? null, tokenExpiryDays: req.tokenExpiryDays ?? null })) };
    },
  };
}
