import { CODE_ALPHABET, drawCode, groupedCode, type CodeFormat } from '@ris/codes';

/** MKT-XXXX-XXXX-XXXX of the readable alphabet (libs/codes): a code's prefix says it is a marketplace one. */
const MARKETPLACE_CODE: CodeFormat = { prefix: 'MKT-', groups: 3, groupLength: 4 };

/** A fresh marketplace code; the code's unique index catches the astronomically rare collision and the caller draws again. */
export const generateMarketplaceCode = (): string => drawCode(MARKETPLACE_CODE);

const CODE_SHAPE = new RegExp(`^MKT([${CODE_ALPHABET}]{${MARKETPLACE_CODE.groups * MARKETPLACE_CODE.groupLength}})$`);

/**
 * The canonical form of something typed as a marketplace code (any case,
 * with or without dashes and spaces), or null when it cannot be one.
 */
export function normalizeMarketplaceCode(input: string): string | null {
  const match = CODE_SHAPE.exec(input.toUpperCase().replace(/[\s-]/g, ''));
  return match ? groupedCode(MARKETPLACE_CODE, match[1]) : null;
}
