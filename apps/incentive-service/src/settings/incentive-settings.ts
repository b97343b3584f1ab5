import { checkWholeNumber } from '../definitions/definition-key';
import { ShortLivedCache } from '../definitions/short-lived-cache';
import { invalid } from '@ris/domain-errors';
import type { CreditTerms } from '../ledger/credit-expiry';
import type { IncentiveSettingsRepository } from './incentive-settings.repository';

export const MAX_EXPIRY_DAYS = 3650;

export interface IncentiveSettingsView extends CreditTerms {
  updatedAt: Date | null;
}

function checkDays(value: number | null, field: string): number | null {
  if (value === null) return null;
  checkWholeNumber(value, field, MAX_EXPIRY_DAYS);
  if (value < 1) throw invalid(`${field} must be from 1 to ${MAX_EXPIRY_DAYS}`, { field });
  return value;
}

/**
 * An app's engine settings: how long credits live. Read by every credit
 * (cached briefly; a change shows on another replica within a second) and
 * applied to credits from then on: a lot keeps the expiry it was given.
 */
export class IncentiveSettings {
  private readonly cache = new ShortLivedCache<CreditTerms>(1000);

  constructor(private readonly settings: IncentiveSettingsRepository) {}

  async view(appId: string): Promise<IncentiveSettingsView> {
    const doc = await this.settings.ofApp(appId);
    return { coinExpiryDays: doc?.coinExpiryDays ?? null, tokenExpiryDays: doc?.tokenExpiryDays ?? null, updatedAt: doc?.updatedAt ?? null };
  }

  terms(appId: string): Promise<CreditTerms> {
    return this.cache.get(appId, () => this.view(appId));
  }

  async put(appId: string, input: CreditTerms): Promise<IncentiveSettingsView> {
    const doc = await this.settings.put(appId, {
      coinExpiryDays: checkDays(input.coinExpiryDays, 'coinExpiryDays'),
      tokenExpiryDays: checkDays(input.tokenExpiryDays, 'tokenExpiryDays'),
    });
    this.cache.invalidate(appId);
    return { coinExpiryDays: doc.coinExpiryDays, tokenExpiryDays: doc.tokenExpiryDays, updatedAt: doc.updatedAt };
  }
}
