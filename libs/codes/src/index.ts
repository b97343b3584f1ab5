export { CODE_ALPHABET, drawCode, groupedCode, type CodeFormat } from './readable-code';
