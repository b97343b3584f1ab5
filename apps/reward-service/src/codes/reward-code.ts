import { drawCode, groupedCode, type CodeFormat } from '@ris/codes';

/** XXXX-XXXX-XXXX of the readable alphabet (libs/codes), no prefix. */
const REWARD_CODE: CodeFormat = { prefix: '', groups: 3, groupLength: 4 };

/** A fresh reward code; the code's unique index catches the astronomically rare collision and the claim draws again. */
export const generateRewardCode = (): string => drawCode(REWARD_CODE);

/** People type codes in any case, with or without dashes and spaces. */
export function normalizeRewardCode(input: string): string {
  const bare = input.toUpperCase().replace(/[^A-Z0-9]/g, '');
  if (bare.length !== REWARD_CODE.groups * REWARD_CODE.groupLength) return input.trim().toUpperCase();
  return groupedCode(REWARD_CODE, bare);
}
