/**
 * The embedded database's own thread (decision 013): PGlite's WASM and its JS run here, off the
 * server's event loop. server/db/pglite-pool.ts starts it and talks to it by message:
 *   in:  { id, op }                                 (a SessionOp)
 *   out: { id, ok: true, value } | { id, ok: false, error }   (ErrorData)
 *        { notify: channel, payload }               (a NOTIFY heard on a LISTENed channel)
 *        { ready: true } | { failed: ErrorData }    (once, after start)
 */
import { parentPort, workerData } from 'node:worker_threads'
import { createPGlite, errorData, PGliteSession, type PGliteAssets, type SessionOp } from './pglite-session.ts'

export type WorkerStart = { dir?: string; load?: { bytes: ArrayBuffer; type: string }; assets: PGliteAssets }
export type WorkerRequest = { id: number; op: SessionOp }

const port = parentPort
if (!port) throw new Error('pglite-worker.ts runs as a worker thread')
const start = workerData as WorkerStart

try {
  const db = await createPGlite({ dir: start.dir, load: start.load ? new Blob([start.load.bytes], { type: start.load.type }) : undefined, assets: start.assets })
  const session = new PGliteSession(db, (channel, payload) => port.postMessage({ notify: channel, payload }))
  port.on('message', ({ id, op }: WorkerRequest) => {
    session.run(op).then(
      async (value) => {
        if (value instanceof Blob) {
          // The data folder's dump: its bytes move to the other thread instead of being copied.
          const bytes = await value.arrayBuffer()
          port.postMessage({ id, ok: true, value: { bytes, type: value.type } }, [bytes])
        } else {
          port.postMessage({ id, ok: true, value })
        }
        if (op.kind === 'close') port.close()
      },
      (error: unknown) => port.postMessage({ id, ok: false, error: errorData(error) }),
    )
  })
  port.postMessage({ ready: true })
} catch (error) {
  port.postMessage({ failed: errorData(error) })
}
