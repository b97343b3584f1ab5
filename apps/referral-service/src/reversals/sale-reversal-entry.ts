/**
 * One reversal applied to a sale (a conversion's own, or a purchase): its id
 * and the sale's reversed amount after it, from which the share of the sale
 * left for its rewards is decided the same way on every try. Stored on the
 * sale's own document (conversion.model.ts, purchase.model.ts).
 */
export interface SaleReversalEntry {
  id: string;
  after: number;
}
