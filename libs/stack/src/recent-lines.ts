/**
 * The last lines a process wrote, kept in memory as its output streams by:
 * what a give-up report shows without reading a log file that may not be
 * flushed yet.
 */
export class RecentLines {
  private lines: string[] = [];
  private partial = '';

  constructor(private readonly keep = 20) {}

  push(chunk: Buffer | string): void {
    const parts = (this.partial + String(chunk)).split('\n');
    this.partial = parts.pop() ?? '';
    this.lines.push(...parts.filter((line) => line.trim() !== ''));
    if (this.lines.length > this.keep) this.lines = this.lines.slice(-this.keep);
  }

  last(): string[] {
    const all = this.partial.trim() ? [...this.lines, this.partial] : this.lines;
    return all.slice(-this.keep);
  }

  clear(): void {
    this.lines = [];
    this.partial = '';
  }
}
