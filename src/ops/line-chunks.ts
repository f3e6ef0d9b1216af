// Log lines gathered into chunks for writing: each chunk holds whole lines, at most a set
// number of bytes (a longer line goes alone), encoded once, straight into a buffer that is used
// again once its chunk is written. Until then lines go into another one: a write in flight
// never sees its bytes change. What waits is bounded too: a line that would pass the bound is
// dropped.

export class LineChunks {
  /** Chunks full or cut off, oldest first, waiting to be taken. */
  private readonly waiting: Buffer[] = [];
  private current: Buffer;
  private used = 0;
  /** A written chunk's buffer, to gather into next instead of allocating one. */
  private spare: Buffer | undefined;
  /** The buffers made here: only these are gathered into again. */
  private readonly own = new WeakSet<ArrayBufferLike>();
  /** Bytes gathered and not yet taken. */
  bytes = 0;

  constructor(
    private readonly chunkBytes: number,
    /** Most bytes that may wait, gathered and not yet taken. */
    private readonly maxBytes = Number.POSITIVE_INFINITY,
  ) {
    this.current = this.allocate();
  }

  /** Gathers the line; false when it is dropped, as more than maxBytes would then wait. */
  add(line: string): boolean {
    const room = this.chunkBytes - this.used;
    // A character is at most 3 bytes of UTF-8 per UTF-16 unit: most lines are far enough from
    // both bounds not to be counted at all.
    const most = line.length * 3;
    if (most > room || this.bytes + most > this.maxBytes) {
      const length = Buffer.byteLength(line);
      if (this.bytes + length > this.maxBytes) return false;
      if (length > room) {
        this.cut();
        if (length > this.chunkBytes) {
          this.waiting.push(Buffer.from(line));
          this.bytes += length;
          return true;
        }
      }
    }
    const written = this.current.write(line, this.used);
    this.used += written;
    this.bytes += written;
    return true;
  }

  /** Whether a whole chunk is waiting: worth a write now rather than later. */
  get hasWholeChunk(): boolean {
    return this.waiting.length > 0;
  }

  /** The oldest chunk; what is gathered so far when none is waiting; undefined when empty. */
  take(): Buffer | undefined {
    if (this.waiting.length === 0) this.cut();
    const chunk = this.waiting.shift();
    if (chunk !== undefined) this.bytes -= chunk.length;
    return chunk;
  }

  /** A taken chunk is written: its buffer may be gathered into again. */
  release(chunk: Buffer): void {
    if (this.own.has(chunk.buffer)) this.spare = Buffer.from(chunk.buffer, 0, this.chunkBytes);
  }

  /** Drops everything gathered. */
  clear(): void {
    this.waiting.length = 0;
    this.used = 0;
    this.bytes = 0;
  }

  private cut(): void {
    if (this.used === 0) return;
    if (this.used <= this.chunkBytes / 2) {
      // Cut early (a flush, or a line longer than a chunk): a copy of what is there, so that a
      // little waiting text never holds a whole buffer, and this one goes on gathering.
      this.waiting.push(Buffer.from(this.current.subarray(0, this.used)));
    } else {
      this.waiting.push(this.current.subarray(0, this.used));
      this.current = this.spare ?? this.allocate();
      this.spare = undefined;
    }
    this.used = 0;
  }

  private allocate(): Buffer {
    const buffer = Buffer.allocUnsafeSlow(this.chunkBytes);
    this.own.add(buffer.buffer);
    return buffer;
  }
}
