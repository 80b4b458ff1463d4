/**
 * Change sets (issue 33, decision 030): the words both sides use. A change set selects zones or
 * domains with a list filter (pql over the zones or the domains list), says what to change, shows
 * the per-object diff before anything is sent, and rolls the change out in stages.
 */

export const CHANGE_SET_TARGETS = ['zones', 'domains'] as const
export type ChangeSetTarget = (typeof CHANGE_SET_TARGETS)[number]

export const CHANGE_SET_STATES = ['draft', 'awaiting_approval', 'rejected', 'running', 'paused', 'completed', 'rolled_back', 'cancelled'] as const
export type ChangeSetState = (typeof CHANGE_SET_STATES)[number]
export const CHANGE_SET_PHASES = ['applying', 'checking', 'rolling_back'] as const
export type ChangeSetPhase = (typeof CHANGE_SET_PHASES)[number]

/** What the preview found for one object. */
export const OBJECT_PREVIEWS = ['change', 'unchanged', 'conflict'] as const
export type ObjectPreview = (typeof OBJECT_PREVIEWS)[number]
/** What became of one object in the rollout. */
export const OBJECT_OUTCOMES = ['applied', 'unchanged', 'failed', 'rolled_back', 'skipped', 'approval_requested'] as const
export type ChangeSetObjectOutcome = (typeof OBJECT_OUTCOMES)[number]

/** The kinds of change, each for one target. */
export const CHANGE_KINDS = ['dns', 'auto_renew', 'registry_lock', 'tags', 'nameservers'] as const
export type ChangeKind = (typeof CHANGE_KINDS)[number]
export const TARGET_OF: Record<ChangeKind, ChangeSetTarget> = { dns: 'zones', auto_renew: 'domains', registry_lock: 'domains', tags: 'domains', nameservers: 'domains' }

/**
 * One record operation, names relative to each zone ('@' its apex), types and contents as the
 * record editor takes them. `add` makes the record present; `replace` makes the RRset (name and
 * type) exactly `contents` — only its records whose content starts with `match` when given (an SPF
 * TXT among other TXT records); `remove` removes the record of that content, or the whole RRset.
 */
export type RecordOperation =
  | { op: 'add'; name: string; type: string; ttl?: number; content: string }
  | { op: 'replace'; name: string; type: string; ttl?: number; contents: string[]; match?: string }
  | { op: 'remove'; name: string; type: string; content?: string }

export type ChangeSpec =
  | { kind: 'dns'; operations: RecordOperation[]; template?: RecordTemplate }
  | { kind: 'auto_renew'; value: boolean }
  /** The registry lock (the client statuses of domains/update.ts LOCK_STATUSES) on or off, at the registry. */
  | { kind: 'registry_lock'; value: boolean }
  | { kind: 'tags'; add: string[]; remove: string[] }
  | { kind: 'nameservers'; nameservers: string[] }

/** Record templates: a named set of operations (a set naming one without operations takes its operations). */
export const RECORD_TEMPLATE_NAMES = ['google-workspace', 'no-mail', 'caa-letsencrypt'] as const
export type RecordTemplate = (typeof RECORD_TEMPLATE_NAMES)[number]
export const RECORD_TEMPLATES: Record<RecordTemplate, RecordOperation[]> = {
  'google-workspace': [
    {
      op: 'replace',
      name: '@',
      type: 'MX',
      contents: ['1 aspmx.l.google.com.', '5 alt1.aspmx.l.google.com.', '5 alt2.aspmx.l.google.com.', '10 alt3.aspmx.l.google.com.', '10 alt4.aspmx.l.google.com.'],
    },
    { op: 'replace', name: '@', type: 'TXT', match: '"v=spf1', contents: ['"v=spf1 include:_spf.google.com ~all"'] },
  ],
  'no-mail': [
    { op: 'replace', name: '@', type: 'MX', contents: ['0 .'] },
    { op: 'replace', name: '@', type: 'TXT', match: '"v=spf1', contents: ['"v=spf1 -all"'] },
    { op: 'replace', name: '_dmarc', type: 'TXT', contents: ['"v=DMARC1; p=reject"'] },
  ],
  'caa-letsencrypt': [{ op: 'replace', name: '@', type: 'CAA', contents: ['0 issue "letsencrypt.org"'] }],
}

/** The stages of a rollout: cumulative shares in percent, rising, the last 100. */
export const DEFAULT_STAGES = [1, 10, 100] as const
export const MAX_STAGES = 6
export const CHANGE_SET_LIMIT = 10_000

/** Why a list of stage shares is not usable, or null. */
export function stagesProblem(stages: readonly number[]): string | null {
  if (stages.length < 1 || stages.length > MAX_STAGES) return `Give 1 to ${MAX_STAGES} stages`
  if (stages.some((s) => !Number.isInteger(s) || s < 1 || s > 100)) return 'Each stage is a whole percentage from 1 to 100'
  if (stages.some((s, i) => i > 0 && s <= stages[i - 1]!)) return 'Each stage must reach more objects than the one before'
  if (stages.at(-1) !== 100) return 'The last stage reaches every object (100 %)'
  return null
}

/** Reads "1, 10, 100" (the form's text) as stage shares; NaN where a part is not a number. */
export const parseStages = (text: string) =>
  text
    .split(/[\s,;%]+/)
    .filter(Boolean)
    .map((part) => (/^\d+$/.test(part) ? Number(part) : Number.NaN))

/**
 * The stage (0-based) of the object at `position` among `total`: stage i reaches the first
 * ceil(total × share / 100) objects, and every stage at least one more than the one before while
 * objects remain.
 */
export function stageEnds(total: number, stages: readonly number[]): number[] {
  const ends: number[] = []
  let previous = 0
  for (const share of stages) {
    const end = Math.min(total, Math.max(previous + 1, Math.ceil((total * share) / 100)))
    ends.push(end)
    previous = end
  }
  return ends
}

/** The preview's counts over the whole set. */
export type ChangeSetPreview = { objects: number; changed: number; unchanged: number; conflicts: number; added: number; removed: number }

/** A health check between stages: what was asked of PowerDNS and what did not answer as expected. */
export type ChangeSetCheck = { stage: number; ok: boolean; checked: number; skipped?: string; failures: { name: string; reason: string }[]; at: string }

/** Why a line of the operations text cannot be read: its verb, or its owner name and type missing, or a content missing. */
export type OperationLineProblem = { line: number; code: 'op' | 'fields' | 'content' }

/**
 * The record operations as a person types them, one a line (the form's text; `#` starts a comment):
 * `add www A 192.0.2.1`, `replace @ MX 10 mx1.example. | 20 mx2.example.` (the RRset's records
 * separated by ` | `), `remove www CNAME` (the whole RRset) or `remove www A 192.0.2.1`.
 */
export function parseOperations(text: string): { operations: RecordOperation[]; problems: OperationLineProblem[] } {
  const operations: RecordOperation[] = []
  const problems: OperationLineProblem[] = []
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.replace(/^\s+|\s+$/g, '')
    if (!line || line.startsWith('#')) return
    const match = /^(\S+)\s+(\S+)\s+(\S+)(?:\s+(.*))?$/.exec(line)
    const op = (match?.[1] ?? line.split(/\s+/)[0] ?? '').toLowerCase()
    if (op !== 'add' && op !== 'replace' && op !== 'remove') return problems.push({ line: index + 1, code: 'op' })
    if (!match) return problems.push({ line: index + 1, code: 'fields' })
    const [, , name, type, rest = ''] = match as unknown as [string, string, string, string, string | undefined]
    const content = rest.trim()
    if (op === 'remove') return operations.push({ op, name, type: type.toUpperCase(), ...(content ? { content } : {}) })
    if (!content) return problems.push({ line: index + 1, code: 'content' })
    if (op === 'add') return operations.push({ op, name, type: type.toUpperCase(), content })
    operations.push({
      op,
      name,
      type: type.toUpperCase(),
      contents: content
        .split(' | ')
        .map((c) => c.trim())
        .filter(Boolean),
    })
  })
  return { operations, problems }
}

/** The operations as the form's text (a template's `match` is the one thing the text cannot say: shown by the screen beside it). */
export const printOperations = (operations: readonly RecordOperation[]) =>
  operations
    .map((o) =>
      o.op === 'add'
        ? `add ${o.name} ${o.type} ${o.content}`
        : o.op === 'replace'
          ? `replace ${o.name} ${o.type} ${o.contents.join(' | ')}`
          : `remove ${o.name} ${o.type}${o.content ? ` ${o.content}` : ''}`,
    )
    .join('\n')
