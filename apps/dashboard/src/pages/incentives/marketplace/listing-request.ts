import type { Body, Discount, MarketplaceListing } from '../../../api/types';
import { formatAmount } from '../../../ui/format';
import { instantOf, localOf } from '../../../ui/local-time';
import { stockOf, whole, type PricedValues } from '../cost-fields';

export interface ListingFormValues extends PricedValues {
  title: string;
  description: string;
  discountType: Discount['type'];
  discountValue: number | string;
  /** `datetime-local`, the operator's time; empty: no end. */
  expiresAt: string;
  published: boolean;
  codeValidityDays: number | string;
}

export const NEW_LISTING: ListingFormValues = {
  title: '',
  description: '',
  coinCost: 500,
  tokenCost: 0,
  unlimited: true,
  stock: 100,
  discountType: 'PERCENT',
  discountValue: 10,
  expiresAt: '',
  published: false,
  codeValidityDays: 90,
};

/** A discount in words: `15 % off`, `5 off`. */
export function discountText(discount: Discount): string {
  return discount.type === 'PERCENT' ? `${formatAmount(discount.value)} % off` : `${formatAmount(discount.value)} off`;
}

export function listingFormValues(listing: MarketplaceListing): ListingFormValues {
  return {
    title: listing.title,
    description: listing.description,
    coinCost: listing.coinCost,
    tokenCost: listing.tokenCost,
    unlimited: listing.quantity < 0,
    stock: listing.quantity < 0 ? NEW_LISTING.stock : listing.quantity,
    discountType: listing.discount.type,
    discountValue: listing.discount.value,
    expiresAt: localOf(listing.expiresAt),
    published: listing.published,
    codeValidityDays: listing.codeValidityDays,
  };
}

function common(values: ListingFormValues) {
  return {
    title: values.title.trim(),
    description: values.description.trim(),
    coinCost: whole(values.coinCost),
    tokenCost: whole(values.tokenCost),
    quantity: stockOf(values),
    discount: { type: values.discountType, value: Number(values.discountValue) },
    published: values.published,
    codeValidityDays: whole(values.codeValidityDays),
  };
}

/** POST …/listings: without an end, `expiresAt` is left out. */
export function createListingRequest(values: ListingFormValues): Body<'/api/v1/incentives/marketplace/listings', 'post'> {
  const expiresAt = instantOf(values.expiresAt);
  return { ...common(values), ...(expiresAt ? { expiresAt } : {}) };
}

/** PATCH …/listings/{id}: an emptied end removes it (null). */
export function updateListingRequest(values: ListingFormValues): Body<'/api/v1/incentives/marketplace/listings/{listingId}', 'patch'> {
  return { ...common(values), expiresAt: instantOf(values.expiresAt) };
}

/** The form field an API field is edited in. */
export function listingFieldOf(apiField: string): string {
  if (apiField === 'quantity') return 'stock';
  if (apiField.startsWith('discount')) return 'discountValue';
  return apiField;
}
