/**
 * Markers a good (catalog item or listing) carries while a stock move is
 * not yet acknowledged by its redemption. The move and its marker are one
 * single-document update, so "was the unit taken (or given back) for this
 * redemption?" always has an answer, and each move happens at most once:
 * that is what lets a saga without transactions be finished or undone
 * after a crash. Markers live only until the redemption records the move.
 */
export interface StockMarkers {
  /** Redemptions whose reservation took a unit that is not final yet. */
  stockHolds: string[];
  /** Cancelled redemptions whose unit was given back but which are not yet CANCELLED. */
  stockReturns: string[];
  /**
   * Set with every marker, cleared by the recovery sweep once both lists
   * are empty: what the sweep finds goods by. (The lists themselves are
   * not indexed: FerretDB on PostgreSQL indexes an array as one value,
   * which fails past about 2.7 KB, i.e. ~100 redemptions in flight.)
   */
  stockMarked: boolean;
}

export const stockMarkerFields = {
  stockHolds: { type: [String], default: (): string[] => [] },
  stockReturns: { type: [String], default: (): string[] => [] },
  stockMarked: { type: Boolean, default: false },
};
