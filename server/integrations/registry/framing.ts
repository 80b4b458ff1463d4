/**
 * RFC 5734 framing: every EPP data unit is preceded by a 4-byte big-endian length that counts
 * the header itself. TCP delivers arbitrary chunks, so the reader buffers until a whole frame is in.
 */

export const FRAME_HEADER_BYTES = 4
/** Large enough for a check of many names or an info with many hosts; small enough to refuse junk. */
export const DEFAULT_MAX_FRAME_BYTES = 1_048_576

export class FrameError extends Error {
  readonly length: number
  /** The whole frames that came before the bad header in the same chunk: still to be answered. */
  readonly frames: string[]
  constructor(message: string, length: number, frames: string[] = []) {
    super(message)
    this.name = 'FrameError'
    this.length = length
    this.frames = frames
  }
}

export function encodeFrame(xml: string): Buffer {
  const body = Buffer.from(xml, 'utf8')
  const frame = Buffer.allocUnsafe(FRAME_HEADER_BYTES + body.length)
  frame.writeUInt32BE(FRAME_HEADER_BYTES + body.length, 0)
  body.copy(frame, FRAME_HEADER_BYTES)
  return frame
}

/**
 * Accumulates socket chunks and yields complete frames' XML. A length below the header size or
 * above `maxFrameBytes` throws (with the frames read before it), after which the stream is
 * unusable (the caller closes it).
 */
export class FrameReader {
  readonly maxFrameBytes: number
  private chunks: Buffer[] = []
  private buffered = 0

  constructor(maxFrameBytes = DEFAULT_MAX_FRAME_BYTES) {
    this.maxFrameBytes = maxFrameBytes
  }

  push(chunk: Buffer): string[] {
    this.chunks.push(chunk)
    this.buffered += chunk.length
    const frames: string[] = []
    for (;;) {
      if (this.buffered < FRAME_HEADER_BYTES) break
      const head = this.peekHeader()
      // Refused from the header alone: an oversized frame's body is never buffered.
      if (head < FRAME_HEADER_BYTES) throw new FrameError(`EPP frame length ${head} is shorter than its own header`, head, frames)
      if (head > this.maxFrameBytes) throw new FrameError(`EPP frame of ${head} bytes exceeds the maximum of ${this.maxFrameBytes}`, head, frames)
      if (this.buffered < head) break
      const all = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.buffered)
      frames.push(all.toString('utf8', FRAME_HEADER_BYTES, head))
      const rest = all.subarray(head)
      this.chunks = rest.length ? [rest] : []
      this.buffered = rest.length
    }
    return frames
  }

  get pendingBytes(): number {
    return this.buffered
  }

  private peekHeader(): number {
    const first = this.chunks[0]!
    if (first.length >= FRAME_HEADER_BYTES) return first.readUInt32BE(0)
    const joined = Buffer.concat(this.chunks, this.buffered)
    this.chunks = [joined]
    return joined.readUInt32BE(0)
  }
}
