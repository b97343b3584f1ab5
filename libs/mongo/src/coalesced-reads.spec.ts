import { CoalescedReads } from './coalesced-reads';

describe('CoalescedReads', () => {
  it('answers the reads of one key that arrive together from one read, and other keys from their own', async () => {
    const reads = new CoalescedReads<string>();
    const loads: string[] = [];
    const load = (key: string) => async () => {
      loads.push(key);
      return `value of ${key}`;
    };
    const answers = await Promise.all([reads.read('a', load('a')), reads.read('a', load('a')), reads.read('b', load('b')), reads.read('a', load('a'))]);
    expect(answers).toEqual(['value of a', 'value of a', 'value of b', 'value of a']);
    expect(loads.sort()).toEqual(['a', 'b']);
  });

  it('never answers a caller from a read sent before it asked: it waits for the next read, which sees a write made meanwhile', async () => {
    const reads = new CoalescedReads<number>();
    let stored = 1;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // The first read is sent and holds its value (1) until the gate opens.
    const first = reads.read('doc', async () => {
      const value = stored;
      await gate;
      return value;
    });
    await new Promise((resolve) => setImmediate(resolve));
    stored = 2; // a write acknowledged before the next callers ask
    const later = [reads.read('doc', async () => stored), reads.read('doc', async () => stored)];
    release();
    expect(await first).toBe(1);
    expect(await Promise.all(later)).toEqual([2, 2]);
  });

  it('gives every caller of a failed read its error, and the next read runs afresh', async () => {
    const reads = new CoalescedReads<number>();
    const failing = [reads.read('k', () => Promise.reject(new Error('down'))), reads.read('k', async () => 7)];
    await expect(failing[0]).rejects.toThrow('down');
    await expect(failing[1]).rejects.toThrow('down');
    await expect(reads.read('k', async () => 7)).resolves.toBe(7);
  });
});
