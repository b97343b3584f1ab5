/**
 * The keys a sale is known by in Stripe (sale-link.model.ts): the
 * customer who converted, the subscription of the checkout, and the
 * payment intents, invoices and charges that paid the conversion or a
 * purchase.
 */
export const saleKey = {
  customer: (id: string) => `customer:${id}`,
  subscription: (id: string) => `subscription:${id}`,
  paymentIntent: (id: string) => `payment_intent:${id}`,
  invoice: (id: string) => `invoice:${id}`,
  charge: (id: string) => `charge:${id}`,
};

/** The keys of the ids given, in their order, without the missing ones. */
export function keysOf(...keys: Array<string | null>): string[] {
  return keys.filter((key): key is string => key !== null);
}

/** A key for people: "customer cus_123". */
export const describeKey = (key: string) => key.replace(/^([a-z_]+):/, (_, kind: string) => `${kind.replace(/_/g, ' ')} `);
