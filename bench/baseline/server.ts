/**
 * The baseline server of bench:render: the same stack as the portal's (Hono's node server and
 * React Router's createRequestHandler), serving the build of bench/baseline and nothing else.
 *   node bench/baseline/server.ts <port>
 *   BASELINE_DOCUMENT=bench/out/baseline-document.json node bench/baseline/server.ts <port>
 *
 * With BASELINE_DOCUMENT (a document body read by bench/baseline/document-tree.ts, as JSON), /document
 * renders that body from memory.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { serve } from '@hono/node-server'
import { serveStatic } from '@hono/node-server/serve-static'
import { Hono } from 'hono'
import { createRequestHandler, type ServerBuild } from 'react-router'

const port = Number(process.argv[2] ?? 3970)
const out = path.resolve(import.meta.dirname, '../out/baseline')
const build = (await import(pathToFileURL(path.join(out, 'server/index.js')).href)) as ServerBuild
if (process.env.BASELINE_DOCUMENT) (globalThis as { baselineDocument?: unknown }).baselineDocument = JSON.parse(readFileSync(process.env.BASELINE_DOCUMENT, 'utf8'))
const handle = createRequestHandler(build, 'production')
const app = new Hono()
app.use('/assets/*', serveStatic({ root: path.relative(process.cwd(), path.join(out, 'client')) || '.' }))
app.all('*', (c) => handle(c.req.raw))
serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, (info) => console.log(`baseline listening on 127.0.0.1:${info.port}`))
