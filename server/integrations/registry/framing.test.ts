import { describe, expect, it } from 'vitest'
import { encodeFrame, FrameError, FrameReader } from './framing.ts'

describe('RFC 5734 framing', () => {
  it('prefixes the UTF-8 body with a big-endian length that counts the header', () => {
    const frame = encodeFrame('<é/>')
    expect(frame.readUInt32BE(0)).toBe(4 + Buffer.byteLength('<é/>'))
    expect(frame.subarray(4).toString('utf8')).toBe('<é/>')
  })

  it('reassembles a frame delivered one byte at a time, including a split multibyte character', () => {
    const reader = new FrameReader()
    const bytes = encodeFrame('<epp>ünïcode</epp>')
    const out: string[] = []
    for (const byte of bytes) out.push(...reader.push(Buffer.from([byte])))
    expect(out).toEqual(['<epp>ünïcode</epp>'])
    expect(reader.pendingBytes).toBe(0)
  })

  it('splits several frames arriving in one chunk and keeps the partial rest', () => {
    const reader = new FrameReader()
    const third = encodeFrame('<c/>')
    const chunk = Buffer.concat([encodeFrame('<a/>'), encodeFrame('<b/>'), third.subarray(0, 6)])
    expect(reader.push(chunk)).toEqual(['<a/>', '<b/>'])
    expect(reader.pendingBytes).toBe(6)
    expect(reader.push(third.subarray(6))).toEqual(['<c/>'])
  })

  it('refuses a frame above the maximum size and a length shorter than its header', () => {
    const reader = new FrameReader(64)
    expect(() => reader.push(encodeFrame('x'.repeat(100)))).toThrow(FrameError)
    expect(() => new FrameReader().push(Buffer.from([0, 0, 0, 2]))).toThrow(/shorter than its own header/)
  })

  it('refuses an oversized frame from its header alone, handing over the frames before it', () => {
    const reader = new FrameReader()
    const huge = Buffer.from([0x7f, 0xff, 0xff, 0xff, 0x3c])
    let error: unknown
    try {
      reader.push(Buffer.concat([encodeFrame('<a/>'), huge]))
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(FrameError)
    expect(error).toMatchObject({ length: 0x7fffffff, frames: ['<a/>'] })
    expect(reader.pendingBytes).toBe(huge.length)
  })
})
